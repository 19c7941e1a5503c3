// The history port backed by the SQLite store (src/main/store): its batched recorder records what the
// gateways see, its queries answer the Gateways cards and the history procedures. One connection,
// opened with the store's own checks (foreign or corrupt files are refused, never overwritten).
import type { ExecutionSummary, GatewayCounters, HistoryFilter, LatencyBucket } from '../../shared/api/models';
import {
  createRedactor,
  exportToString,
  gatewayCounters,
  getExecution,
  importFromString,
  listExecutions,
  listSinkEvents,
  countPrunable,
  pruneHistory,
  SqliteHistoryWriter,
  timeBuckets,
  type Redactor,
} from '../history/sqlite';
import type { HistoryPort } from './history-port';
import { SqliteHistoryStore } from '../history/sqlite/sqlite-history-store';
import { toStoreFilter } from './traffic/sqlite-traffic';
import type { Logger } from './environment';

export class SqliteHistory implements HistoryPort {
  readonly kind = 'sqlite';
  readonly recorder: SqliteHistoryWriter;
  /** The store port on the recorder's connection (closed with the recorder, not by itself). */
  readonly store: SqliteHistoryStore;
  private redactor: Redactor | undefined;

  constructor(dbPath: string, logger: Logger, options: { redactPaths?: string[] } = {}) {
    this.setRedaction(options.redactPaths ?? []);
    this.recorder = SqliteHistoryWriter.open(dbPath, {
      // Delegates, so a change of the redaction setting applies to the next record without reopening.
      redactor: {
        execution: (record) => (this.redactor ? this.redactor.execution(record) : record),
        message: (record) => (this.redactor?.message ? this.redactor.message(record) : record),
      },
      // The app's gateways record too: a killed app must not lose what its clients were answered.
      journal: true,
      onError: (message) => logger.warn(`recording: ${message}`),
    });
    this.store = new SqliteHistoryStore(this.recorder.store);
  }

  /** Redaction at rest: JSON paths replaced in every payload before it is written. */
  setRedaction(paths: string[]): void {
    this.redactor = createRedactor({ paths });
  }

  checkRedaction(paths: string[]): void {
    createRedactor({ paths });
  }

  private get db() {
    return this.recorder.store.db;
  }

  stats(gateway: string, since: Date, bucketMs: number): { counters: GatewayCounters; buckets: LatencyBucket[] } {
    const until = Date.now();
    const [c] = gatewayCounters(this.db, { gateway, since: since.getTime(), until: until + 1 });
    const counters: GatewayCounters = {
      calls: c?.calls ?? 0,
      blocked: c?.blocked ?? 0,
      mutated: c?.mutated ?? 0,
      errors: c?.errors ?? 0,
      p50Ms: c?.p50Ms ?? null,
    };
    const buckets = timeBuckets(this.db, { gateway, since: since.getTime(), until: until + 1, bucketMs }).map((b) => ({
      start: b.start,
      calls: b.calls,
      p50Ms: b.p50Ms,
    }));
    return { counters, buckets };
  }

  query(filter: HistoryFilter, cursor: string | undefined, limit: number) {
    const page = listExecutions(this.db, toStoreFilter(filter), { limit, cursor: cursor ?? null });
    return { items: page.items as ExecutionSummary[], nextCursor: page.nextCursor, ...(page.total !== undefined ? { total: page.total } : {}) };
  }

  detail(id: string): Record<string, unknown> | undefined {
    return getExecution(this.db, id) as Record<string, unknown> | undefined;
  }

  exportJsonl(filter: HistoryFilter): { jsonl: string; count: number } {
    return exportToString(this.db, toStoreFilter(filter));
  }

  importJsonl(text: string): number {
    // Imported executions obey the redaction at rest like recorded ones.
    return importFromString(this.db, text, this.redactor ? { redactor: this.redactor } : {}).executions;
  }

  prune(options: { maxExecutions?: number; maxAgeDays?: number }): number {
    return pruneHistory(this.db, options).deleted;
  }

  countPrunable(options: { maxExecutions?: number; maxAgeDays?: number }): { wouldDelete: number; total: number } {
    const total = this.db.prepare('SELECT COUNT(*) FROM executions').pluck().get() as number;
    return { wouldDelete: countPrunable(this.db, options), total };
  }

  sinkEvents(options: { gateway?: string; interceptor?: string; limit: number }): Record<string, unknown>[] {
    const filter = { ...(options.gateway ? { gateway: options.gateway } : {}), ...(options.interceptor ? { interceptor: options.interceptor } : {}) };
    return listSinkEvents(this.db, filter, { limit: options.limit }).items as unknown as Record<string, unknown>[];
  }

  async close(): Promise<void> {
    await this.recorder.close();
  }
}
