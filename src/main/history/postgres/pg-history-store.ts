// The store port (model/history-store.ts) on PostgreSQL. Opening one migrates the schema first (under
// an advisory lock: many gateways may start at once), so every process that opens the database, the
// console or a gateway, finds it current.
import { hostname } from 'node:os';
import type pg from 'pg';
import { readFile } from 'node:fs/promises';
import type { HistoryStore, MessagePageOptions, PruneOptions, PruneReport, RetentionOptions } from '../model/history-store';
import type { MessageFilter, SessionListOptions } from '../model/messages';
import type { ExecutionFilter } from '../model/filters';
import type { PageOptions } from '../model/executions';
import type { SinkEventFilter } from '../model/sink-events';
import type { AggregateWindow } from '../model/aggregates';
import type { ImportOptions } from '../model/portability/parse-export-lines';
import { createPool, describePgError, PostgresConnectError, redactUrl, type PoolOptions } from './connection';
import { runPgMigrations } from './migrations';
import { DEFAULT_MAX_IN_FLIGHT, PgHistoryWriter, type PgHistoryWriterOptions } from './pg-history-writer';
import { pgCountByOutcome, pgCountExecutions, pgGetExecution, pgGetExecutionRecord, pgGetSession, pgListExecutions, pgListSinkEvents } from './pg-queries';
import { pgFacets, pgGatewayCounters, pgListGateways, pgShadowIds, pgTimeBuckets } from './pg-aggregates';
import { pgToolErrorIds } from './pg-tool-errors';
import { pgCountPrunable, pgPrune } from './pg-retention';
import { pgGetMessage, pgListMessages, pgListMessageSessions, pgMessageMethods } from './pg-messages';
import { pgExportLines, pgImportFromString } from './pg-portability';

/** A pool on the database with the schema migrated; a failure is one line that names the server, not the password. */
export async function openPgPool(url: string, options: PoolOptions = {}): Promise<pg.Pool> {
  const pool = createPool(url, options);
  try {
    await runPgMigrations(pool);
  } catch (err) {
    await pool.end().catch(() => {});
    if (err instanceof PostgresConnectError) throw err;
    throw new PostgresConnectError(describePgError(err, url));
  }
  return pool;
}

/** A recorder with its own connections, one per batch in flight, so readers never wait behind a batch (and the reverse). */
export async function openPgHistoryWriter(url: string, options: PgHistoryWriterOptions = {}): Promise<PgHistoryWriter> {
  return new PgHistoryWriter(await openPgPool(url, { max: options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT }), { ...options, url });
}

export class PgHistoryStore implements HistoryStore {
  readonly kind = 'postgres' as const;
  readonly location: string;

  protected constructor(
    readonly pool: pg.Pool,
    url: string,
  ) {
    this.location = redactUrl(url);
  }

  static async open(url: string, options: PoolOptions = {}): Promise<PgHistoryStore> {
    return new PgHistoryStore(await openPgPool(url, options), url);
  }

  listExecutions(filter: ExecutionFilter = {}, page: PageOptions = {}) {
    return pgListExecutions(this.pool, filter, page);
  }
  countExecutions(filter: ExecutionFilter = {}, options: { cap?: number } = {}) {
    return pgCountExecutions(this.pool, filter, options);
  }
  countByOutcome(filter: ExecutionFilter = {}) {
    return pgCountByOutcome(this.pool, filter);
  }
  getExecution(id: string) {
    return pgGetExecution(this.pool, id);
  }
  getExecutionRecord(id: string) {
    return pgGetExecutionRecord(this.pool, id);
  }
  getSession(gateway: string, sessionId: string) {
    return pgGetSession(this.pool, gateway, sessionId);
  }
  listGateways() {
    return pgListGateways(this.pool);
  }
  listSinkEvents(filter: SinkEventFilter = {}, page: { limit?: number; cursor?: string | null } = {}) {
    return pgListSinkEvents(this.pool, filter, page);
  }
  gatewayCounters(window: AggregateWindow = {}) {
    return pgGatewayCounters(this.pool, window);
  }
  timeBuckets(options: AggregateWindow & { since: string | number; until: string | number; bucketMs: number }) {
    return pgTimeBuckets(this.pool, options);
  }
  facets() {
    return pgFacets(this.pool);
  }
  shadowIds(ids: string[]) {
    return pgShadowIds(this.pool, ids);
  }
  toolErrorIds(ids: string[]) {
    return pgToolErrorIds(this.pool, ids);
  }
  listMessageSessions(gateway: string, options?: SessionListOptions) {
    return pgListMessageSessions(this.pool, gateway, options);
  }
  listMessages(filter: MessageFilter, page: MessagePageOptions = {}) {
    return pgListMessages(this.pool, filter, page);
  }
  getMessage(id: string) {
    return pgGetMessage(this.pool, id);
  }
  messageMethods(gateway: string) {
    return pgMessageMethods(this.pool, gateway);
  }
  countPrunable(options: RetentionOptions) {
    return pgCountPrunable(this.pool, options);
  }
  /** `fullVacuum` is SQLite's: a server's autovacuum reclaims the space. */
  async prune(options: PruneOptions): Promise<PruneReport> {
    const { deleted, messagesDeleted } = await pgPrune(this.pool, options);
    return { deleted, messagesDeleted };
  }
  exportLines(filter?: ExecutionFilter) {
    return pgExportLines(this.pool, filter);
  }
  importFromString(text: string, options: ImportOptions = {}) {
    return pgImportFromString(this.pool, text, options, hostname());
  }
  /** One transaction on the server: the file is read whole (its lines are still bounded). */
  async importFromFile(path: string, options: ImportOptions = {}) {
    return this.importFromString(await readFile(path, 'utf8'), options);
  }
  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }
}
