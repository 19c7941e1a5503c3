// A Recorder with live updates: it wraps the store's recorder so that screens learn about new executions,
// sessions and messages: after a short quiet period it flushes (so the rows are readable) and then pushes
// "executions.new", "messages.new" and "tables changed".
// Batching keeps a busy gateway from flooding every window with one event per call.
import type { ExecutionRecord, Recorder, RecorderStats, SessionRecord } from '../../shared/trace/execution';
import type { ApiEvent, TableName } from '../../shared/api/events';
import type { MessageRecord } from '../../shared/trace/messages';

export class RecorderWithLiveUpdates implements Recorder {
  private pending = new Map<string, number>();
  private pendingSessions = false;
  private pendingMessages = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly inner: Recorder,
    private readonly emit: (event: ApiEvent) => void,
    private readonly delayMs = 150,
  ) {
    const record = inner.recordMessage?.bind(inner);
    if (record) {
      this.recordMessage = (message) => {
        record(message);
        this.pendingMessages.set(message.gateway, (this.pendingMessages.get(message.gateway) ?? 0) + 1);
        this.schedule();
      };
    }
  }

  recordSession(session: SessionRecord): void {
    this.inner.recordSession(session);
    this.pendingSessions = true;
    this.schedule();
  }

  recordExecution(execution: ExecutionRecord): void {
    this.inner.recordExecution(execution);
    this.pending.set(execution.gateway, (this.pending.get(execution.gateway) ?? 0) + 1);
    this.schedule();
  }

  /** Present only when the inner recorder keeps messages: a gateway captures none otherwise. */
  readonly recordMessage?: (message: MessageRecord) => void;

  stats(): RecorderStats {
    return this.inner.stats();
  }

  async flush(): Promise<void> {
    const written = this.takePending();
    await this.inner.flush();
    this.announce(written);
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.inner.close();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // Only what was recorded before this flush is announced after it: a record arriving during the flush
      // is not readable yet, so it waits for the next timer (announcing it now let a live list refresh
      // before its row was committed, and no later event brought it in: a clean-clone CI flake).
      const written = this.takePending();
      this.inner.flush().then(
        () => this.announce(written),
        () => this.announce(written),
      );
    }, this.delayMs);
    this.timer.unref?.();
  }

  private takePending(): { counts: Map<string, number>; sessions: boolean; messages: Map<string, number> } {
    const taken = { counts: this.pending, sessions: this.pendingSessions, messages: this.pendingMessages };
    this.pending = new Map();
    this.pendingSessions = false;
    this.pendingMessages = new Map();
    return taken;
  }

  private announce({ counts, sessions, messages }: { counts: Map<string, number>; sessions: boolean; messages: Map<string, number> }): void {
    for (const [gateway, count] of messages) this.emit({ type: 'messages.new', gateway, count });
    if (messages.size > 0 && counts.size === 0 && !sessions) this.emit({ type: 'tables.changed', tables: ['messages'] });
    for (const [gateway, count] of counts) this.emit({ type: 'executions.new', gateway, count });
    if (counts.size > 0 || sessions) {
      const tables: TableName[] = counts.size > 0 ? ['executions', 'steps', 'sink_events', 'sessions'] : ['sessions'];
      this.emit({ type: 'tables.changed', tables: messages.size > 0 ? [...tables, 'messages'] : tables });
    }
  }
}
