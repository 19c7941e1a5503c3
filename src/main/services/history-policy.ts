// Applies the history settings to the store: redaction at rest (before anything is written) and
// retention (pruned at start and then periodically). Re-applied whenever the settings change.
import type { ApiEvent } from '../../shared/api/events';
import type { Settings } from '../../shared/api/models';
import type { Logger } from './environment';
import type { HistoryService } from './history/history-service';

const PRUNE_EVERY_MS = 10 * 60_000;

export class HistoryPolicy {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly history: HistoryService,
    private readonly settings: () => Settings,
    private readonly logger: Logger,
    private readonly emit: (event: ApiEvent) => void,
  ) {}

  start(): void {
    this.apply();
    this.timer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.timer.unref?.();
  }

  /** Call after a settings change. */
  apply(): void {
    try {
      this.history.setRedaction(this.settings().redactPaths);
    } catch (err) {
      this.logger.error('redaction paths rejected; recording continues without them', err);
    }
    void this.prune();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async prune(): Promise<void> {
    const { maxExecutions, maxAgeDays } = this.settings().retention;
    if (!maxExecutions && !maxAgeDays) return;
    try {
      const deleted = await this.history.prune({ ...(maxExecutions ? { maxExecutions } : {}), ...(maxAgeDays ? { maxAgeDays } : {}) });
      if (deleted > 0) {
        this.logger.info(`retention: pruned ${deleted} executions`);
        this.emit({ type: 'tables.changed', tables: ['executions', 'steps', 'sink_events'] });
      }
    } catch (err) {
      this.logger.warn('retention pruning failed; will retry later', err);
    }
  }
}
