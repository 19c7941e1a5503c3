// The history the console uses, switchable while it runs (Settings → Data: the local SQLite file or a
// shared PostgreSQL). Every service holds this one object; it forwards to the history in use. Its recorder
// forwards too, so the gateways the console runs keep their recorder and record into the new store from
// the moment of the switch, while the old store's recorder writes what it had queued and closes.
import type { ExecutionRecord, Recorder, RecorderStats, SessionRecord } from '../../../shared/trace/execution';
import type { MessageRecord } from '../../../shared/trace/messages';
import type { MessagePageOptions, PruneOptions, RecordingHistory, RetentionOptions } from '../../history/model/history-store';
import type { ExecutionFilter } from '../../history/model/filters';
import type { PageOptions } from '../../history/model/executions';
import type { SinkEventFilter } from '../../history/model/sink-events';
import type { AggregateWindow } from '../../history/model/aggregates';
import type { MessageFilter, SessionListOptions } from '../../history/model/messages';
import type { ImportOptions } from '../../history/model/portability/parse-export-lines';

/** Forwards to the recorder of the history in use. */
export class SwitchingRecorder implements Recorder {
  constructor(private inner: Recorder) {}

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

export class SwitchableHistory implements RecordingHistory {
  readonly recorder: SwitchingRecorder;
  private switching: Promise<unknown> = Promise.resolve();

  constructor(private current: RecordingHistory) {
    this.recorder = new SwitchingRecorder(current.recorder);
  }

  get kind() {
    return this.current.kind;
  }
  get location() {
    return this.current.location;
  }
  get redactor() {
    return this.current.redactor;
  }
  /** Why history is kept in memory only, when it is (app.info's storeError). */
  get unavailableReason(): string | undefined {
    return this.current.unavailableReason;
  }
  /** The history in use (tests and the switch itself). */
  get inUse(): RecordingHistory {
    return this.current;
  }

  /**
   * Puts `next` in use and closes the history used until now (its recorder writes what it had queued
   * first). One switch at a time: a second waits for the first.
   */
  switchTo(next: RecordingHistory): Promise<void> {
    const run = this.switching.then(async () => {
      const old = this.current;
      this.current = next;
      this.recorder.use(next.recorder);
      await old.close();
    });
    this.switching = run.catch(() => undefined);
    return run;
  }

  setRedaction(paths: string[]): void {
    this.current.setRedaction(paths);
  }

  listExecutions(filter?: ExecutionFilter, page?: PageOptions) {
    return this.current.listExecutions(filter, page);
  }
  countExecutions(filter?: ExecutionFilter, options?: { cap?: number }) {
    return this.current.countExecutions(filter, options);
  }
  countByOutcome(filter?: ExecutionFilter) {
    return this.current.countByOutcome(filter);
  }
  getExecution(id: string) {
    return this.current.getExecution(id);
  }
  getExecutionRecord(id: string) {
    return this.current.getExecutionRecord(id);
  }
  getSession(gateway: string, sessionId: string) {
    return this.current.getSession(gateway, sessionId);
  }
  listGateways() {
    return this.current.listGateways();
  }
  listSinkEvents(filter?: SinkEventFilter, page?: { limit?: number; cursor?: string | null }) {
    return this.current.listSinkEvents(filter, page);
  }
  gatewayCounters(window?: AggregateWindow) {
    return this.current.gatewayCounters(window);
  }
  timeBuckets(options: AggregateWindow & { since: string | number; until: string | number; bucketMs: number }) {
    return this.current.timeBuckets(options);
  }
  facets() {
    return this.current.facets();
  }
  shadowIds(ids: string[]) {
    return this.current.shadowIds(ids);
  }
  toolErrorIds(ids: string[]) {
    return this.current.toolErrorIds(ids);
  }
  listMessageSessions(gateway: string, options?: SessionListOptions) {
    return this.current.listMessageSessions(gateway, options);
  }
  listMessages(filter: MessageFilter, page?: MessagePageOptions) {
    return this.current.listMessages(filter, page);
  }
  getMessage(id: string) {
    return this.current.getMessage(id);
  }
  messageMethods(gateway: string) {
    return this.current.messageMethods(gateway);
  }
  countPrunable(options: RetentionOptions) {
    return this.current.countPrunable(options);
  }
  prune(options: PruneOptions) {
    return this.current.prune(options);
  }
  exportLines(filter?: ExecutionFilter) {
    return this.current.exportLines(filter);
  }
  importFromString(text: string, options?: ImportOptions) {
    return this.current.importFromString(text, options);
  }
  importFromFile(path: string, options?: ImportOptions) {
    return this.current.importFromFile(path, options);
  }
  close(): Promise<void> {
    return this.switching.then(() => this.current.close());
  }
}
