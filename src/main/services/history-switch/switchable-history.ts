// The history the console uses, switchable while it runs (Settings → Data: the local SQLite file or a
// shared PostgreSQL). Every service holds this one object; it forwards to the store in use. Its recorder
// forwards too, so the gateways the console runs keep their recorder and record into the new store from
// the moment of the switch, while the old store's recorder writes what it had queued and closes.
import type { ExecutionRecord, Recorder, RecorderStats, SessionRecord } from '../../../shared/trace/execution';
import type { MessageRecord } from '../../../shared/trace/messages';
import type { HistoryFilter } from '../../../shared/api/models';
import type { HistoryPort } from '../history-port';

/** Forwards to the recorder of the store in use; `store` is the SQLite store's, when that is in use. */
export class SwitchingRecorder implements Recorder {
  constructor(private inner: Recorder) {}

  /** The SQLite store under the recorder (the Traffic and Messages reads use it), if the store is SQLite. */
  get store(): unknown {
    return (this.inner as { store?: unknown }).store;
  }

  use(inner: Recorder): void {
    this.inner = inner;
  }

  recordGateway(name: string, config: unknown): void {
    this.inner.recordGateway?.(name, config);
  }
  recordSession(session: SessionRecord): void {
    this.inner.recordSession(session);
  }
  recordExecution(execution: ExecutionRecord): void {
    this.inner.recordExecution(execution);
  }
  recordMessage(message: MessageRecord): void {
    this.inner.recordMessage?.(message);
  }
  stats(): RecorderStats {
    return this.inner.stats();
  }
  flush(): Promise<void> {
    return this.inner.flush();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

export class SwitchableHistory implements HistoryPort {
  readonly recorder: SwitchingRecorder;
  private switching: Promise<unknown> = Promise.resolve();

  constructor(private current: HistoryPort) {
    this.recorder = new SwitchingRecorder(current.recorder);
  }

  get kind() {
    return this.current.kind;
  }
  get traffic() {
    return this.current.traffic;
  }
  /** The store port of the history in use (the Messages view reads through it). */
  get store() {
    return this.current.store;
  }
  /** Why history is kept in memory only, when it is (app.info's storeError). */
  get unavailableReason(): string | undefined {
    return (this.current as { unavailableReason?: string }).unavailableReason;
  }
  /** The store in use (tests and the switch itself). */
  get inUse(): HistoryPort {
    return this.current;
  }

  /**
   * Puts `next` in use and closes the store used until now (its recorder writes what it had queued
   * first). One switch at a time: a second waits for the first.
   */
  switchTo(next: HistoryPort): Promise<void> {
    const run = this.switching.then(async () => {
      const old = this.current;
      this.current = next;
      this.recorder.use(next.recorder);
      await old.close();
    });
    this.switching = run.catch(() => undefined);
    return run;
  }

  stats(gateway: string, since: Date, bucketMs: number) {
    return this.current.stats(gateway, since, bucketMs);
  }
  query(filter: HistoryFilter, cursor: string | undefined, limit: number) {
    return this.current.query(filter, cursor, limit);
  }
  detail(id: string) {
    return this.current.detail(id);
  }
  exportJsonl(filter: HistoryFilter) {
    return this.current.exportJsonl(filter);
  }
  importJsonl(text: string) {
    return this.current.importJsonl(text);
  }
  prune(options: { maxExecutions?: number; maxAgeDays?: number }) {
    return this.current.prune(options);
  }
  countPrunable(options: { maxExecutions?: number; maxAgeDays?: number }) {
    return this.current.countPrunable(options);
  }
  sinkEvents(options: { gateway?: string; interceptor?: string; limit: number }) {
    return this.current.sinkEvents(options);
  }
  setRedaction(paths: string[]): void {
    this.current.setRedaction?.(paths);
  }
  checkRedaction(paths: string[]): void {
    this.current.checkRedaction?.(paths);
  }
  close(): Promise<void> {
    return this.switching.then(() => this.current.close());
  }
}
