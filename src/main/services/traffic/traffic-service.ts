// The Traffic screen's services: single replays (recorded, linked, returned in full) and bulk replay jobs
// (background, progress events, cancellable). Replays are written through the history store's recorder,
// then flushed so the new execution is readable at once, then announced like live traffic.
import { ApiError } from '../../../shared/api/envelope';
import type { ApiEvent } from '../../../shared/api/events';
import type { HistoryFilter } from '../../../shared/api/models';
import type { BulkJob, ReplayMode } from '../../../shared/api/models-traffic';
import type { Recorder } from '../../../shared/trace/execution';
import type { ReplayHost } from '../../gateway/replay/replay';
import type { GatewayManager } from '../gateway-manager';
import { BulkReplayJob } from './bulk-replay';
import { Replayer } from './replayer';
import type { ExecutionDetail } from '../../history/model/executions';
import type { HistoryService } from '../history/history-service';

const KEEP_JOBS = 20;

export interface TrafficServiceDeps {
  manager: GatewayManager;
  history: HistoryService;
  recorder: Recorder;
  emit(event: ApiEvent): void;
  liveHost(gatewayId: string): ReplayHost | undefined;
}

export class TrafficService {
  private readonly jobs = new Map<string, BulkReplayJob>();

  constructor(private readonly deps: TrafficServiceDeps) {}

  async replay(executionId: string, mode: ReplayMode, params?: unknown): Promise<ExecutionDetail> {
    const original = await this.original(executionId);
    const replayer = this.replayer();
    let record;
    try {
      record = await replayer.replay(original, mode, params);
    } finally {
      await replayer.close();
    }
    await this.announce([record.gateway]);
    const detail = await this.deps.history.detail(record.id);
    if (!detail) {
      const stats = this.deps.recorder.stats();
      throw new ApiError(
        'failed',
        `The replay ran (outcome: ${record.outcome}) but was not recorded${stats.lastError ? `: ${stats.lastError}` : ''}. Check the store's health on the Gateways page.`,
      );
    }
    return detail;
  }

  async startBulk(filter: HistoryFilter, mode: ReplayMode, max: number): Promise<BulkJob> {
    const ids = await this.deps.history.originals(filter, max);
    // Checked after the read: two starts awaiting their reads at once must not both run.
    const running = [...this.jobs.values()].find((j) => j.view().state === 'running');
    if (running) throw new ApiError('conflict', 'A bulk replay is already running: wait for it or cancel it first.');
    if (ids.length === 0) throw new ApiError('invalid_input', 'No recorded execution matches this filter (replays are not replayed again): nothing to replay.');
    const gateways = new Set<string>();
    const job = new BulkReplayJob(ids, mode, {
      replayer: this.replayer(),
      detail: async (id) => {
        const d = await this.deps.history.detail(id);
        if (d) gateways.add(d.gateway);
        return d;
      },
      progress: (view) => this.deps.emit({ type: 'replay.progress', jobId: view.jobId, state: view.state, done: view.done, total: view.total }),
      finished: () => this.announce([...gateways]),
    });
    this.jobs.set(job.id, job);
    for (const old of [...this.jobs.keys()].slice(0, Math.max(0, this.jobs.size - KEEP_JOBS))) this.jobs.delete(old);
    return job.view();
  }

  bulkStatus(jobId: string): BulkJob {
    return this.job(jobId).view();
  }

  cancelBulk(jobId: string): BulkJob {
    const job = this.job(jobId);
    job.cancel();
    return job.view();
  }

  /** Waits for every running job (shutdown, tests). */
  async drain(): Promise<void> {
    await Promise.all([...this.jobs.values()].map((j) => j.finishedPromise));
  }

  private async original(executionId: string): Promise<ExecutionDetail> {
    const original = await this.deps.history.detail(executionId);
    if (!original) throw new ApiError('not_found', `No recorded execution with id "${executionId}".`);
    return original;
  }

  private job(jobId: string): BulkReplayJob {
    const job = this.jobs.get(jobId);
    if (!job) throw new ApiError('not_found', `No bulk replay job "${jobId}" (jobs are kept in memory until the console restarts).`);
    return job;
  }

  private replayer(): Replayer {
    return new Replayer({ manager: this.deps.manager, recorder: this.deps.recorder, liveHost: this.deps.liveHost });
  }

  /** Makes replays readable, then tells the screens as live traffic does. */
  private async announce(gateways: string[]): Promise<void> {
    await this.deps.recorder.flush();
    for (const gateway of gateways) this.deps.emit({ type: 'executions.new', gateway, count: 1 });
    this.deps.emit({ type: 'tables.changed', tables: ['executions', 'steps', 'sink_events', 'replays'] });
  }
}
