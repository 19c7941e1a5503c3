// The history port backed by a shared PostgreSQL database (src/main/store-postgres): the console reads
// what every gateway of a team records there, and its own gateways record there too. Two pools: the
// recorder's (batches never wait behind a Traffic query) and the readers'.
import type { ExecutionSummary, GatewayCounters, HistoryFilter, LatencyBucket } from '../../shared/api/models';
import { createRedactor, type Redactor } from '../history/sqlite';
import { exportToText } from '../history/model/history-store';
import { openPgHistoryWriter, PgHistoryStore, type PgHistoryWriter } from '../history/postgres';
import type { Logger } from './environment';
import type { HistoryPort } from './history-port';
import { toStoreFilter } from './traffic/sqlite-traffic';
import { StoreTraffic } from './traffic/store-traffic';

export class PostgresHistory implements HistoryPort {
  readonly kind = 'postgres';
  readonly traffic: StoreTraffic;
  private redactor: Redactor | undefined;

  private constructor(
    readonly store: PgHistoryStore,
    readonly recorder: PgHistoryWriter,
  ) {
    this.traffic = new StoreTraffic(store);
  }

  static async open(url: string, logger: Logger, options: { redactPaths?: string[] } = {}): Promise<PostgresHistory> {
    const store = await PgHistoryStore.open(url);
    // The recorder is made before the history that owns the redaction setting: it reads it through this.
    const owner: { history?: PostgresHistory } = {};
    const recorder = await openPgHistoryWriter(url, {
      // Delegates, so a change of the redaction setting applies to the next record without reopening.
      redactor: {
        execution: (record) => (owner.history?.redactor ? owner.history.redactor.execution(record) : record),
        message: (record) => (owner.history?.redactor?.message ? owner.history.redactor.message(record) : record),
      },
      onError: (message) => logger.warn(`recording: ${message}`),
    }).catch(async (err: unknown) => {
      await store.close();
      throw err;
    });
    const history = new PostgresHistory(store, recorder);
    owner.history = history;
    history.setRedaction(options.redactPaths ?? []);
    logger.info(`history store: PostgreSQL at ${store.location}`);
    return history;
  }

  setRedaction(paths: string[]): void {
    this.redactor = createRedactor({ paths });
  }

  checkRedaction(paths: string[]): void {
    createRedactor({ paths });
  }

  async stats(gateway: string, since: Date, bucketMs: number): Promise<{ counters: GatewayCounters; buckets: LatencyBucket[] }> {
    const until = Date.now() + 1;
    const [[c], buckets] = await Promise.all([
      this.store.gatewayCounters({ gateway, since: since.getTime(), until }),
      this.store.timeBuckets({ gateway, since: since.getTime(), until, bucketMs }),
    ]);
    return {
      counters: { calls: c?.calls ?? 0, blocked: c?.blocked ?? 0, mutated: c?.mutated ?? 0, errors: c?.errors ?? 0, p50Ms: c?.p50Ms ?? null },
      buckets: buckets.map((b) => ({ start: b.start, calls: b.calls, p50Ms: b.p50Ms })),
    };
  }

  async query(filter: HistoryFilter, cursor: string | undefined, limit: number) {
    const page = await this.store.listExecutions(toStoreFilter(filter), { limit, cursor: cursor ?? null });
    return { items: page.items as ExecutionSummary[], nextCursor: page.nextCursor };
  }

  async detail(id: string): Promise<Record<string, unknown> | undefined> {
    return (await this.store.getExecution(id)) as Record<string, unknown> | undefined;
  }

  exportJsonl(filter: HistoryFilter): Promise<{ jsonl: string; count: number }> {
    return exportToText(this.store, toStoreFilter(filter));
  }

  async importJsonl(text: string): Promise<number> {
    return (await this.store.importFromString(text, this.redactor ? { redactor: this.redactor } : {})).executions;
  }

  async prune(options: { maxExecutions?: number; maxAgeDays?: number }): Promise<number> {
    return (await this.store.prune(options)).deleted;
  }

  async countPrunable(options: { maxExecutions?: number; maxAgeDays?: number }): Promise<{ wouldDelete: number; total: number }> {
    const [wouldDelete, total] = await Promise.all([this.store.countPrunable(options), this.store.countExecutions()]);
    return { wouldDelete, total };
  }

  async sinkEvents(options: { gateway?: string; interceptor?: string; limit: number }): Promise<Record<string, unknown>[]> {
    const filter = { ...(options.gateway ? { gateway: options.gateway } : {}), ...(options.interceptor ? { interceptor: options.interceptor } : {}) };
    return (await this.store.listSinkEvents(filter, { limit: options.limit })).items as unknown as Record<string, unknown>[];
  }

  async close(): Promise<void> {
    await this.recorder.close();
    await this.store.close();
  }
}
