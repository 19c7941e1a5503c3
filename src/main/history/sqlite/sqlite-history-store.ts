// The store port (model/history-store.ts) on an open SQLite file: each method is the store's own synchronous
// query, answered as a promise. Behaviour is exactly that of the functions it calls.
import type { ExecutionFilter } from './queries/filters';
import type { HistoryStore, MessagePageOptions, PruneOptions, PruneReport, RetentionOptions } from '../model/history-store';
import type { Store } from './open/open-store';
import type { ImportOptions } from './portability/import-jsonl';
import type { AggregateWindow } from './queries/aggregates';
import type { SinkEventFilter } from './queries/sink-events';
import type { PageOptions } from './queries/list-executions';
import { countByOutcome, countExecutions, listExecutions } from './queries/list-executions';
import { getExecution, getExecutionRecord } from './queries/execution-detail';
import { listGateways } from './queries/gateways';
import { listSinkEvents } from './queries/sink-events';
import { gatewayCounters, timeBuckets } from './queries/aggregates';
import { facets, shadowIds } from './queries/facets';
import { toolErrorIds } from './queries/tool-errors';
import { countPrunable, pruneHistory } from './retention/prune';
import { exportLines } from './portability/export-jsonl';
import { importFromFile, importFromString } from './portability/import-jsonl';
import { SESSION_SELECT, sessionFromRow } from './sql/reader';
import { cachedStatement } from './queries/statement-cache';
import { getMessage, listMessages, listMessageSessions, messageMethods, type MessageFilter } from './queries/messages';
import type { SessionListOptions } from '../model/messages';

export class SqliteHistoryStore implements HistoryStore {
  readonly kind = 'sqlite' as const;

  constructor(
    readonly store: Store,
    private readonly ownsStore = false,
  ) {}

  get location(): string {
    return this.store.path;
  }

  private get db() {
    return this.store.db;
  }

  async listExecutions(filter: ExecutionFilter = {}, page: PageOptions = {}) {
    return listExecutions(this.db, filter, page);
  }
  async countExecutions(filter: ExecutionFilter = {}, options: { cap?: number } = {}) {
    return countExecutions(this.db, filter, options);
  }
  async countByOutcome(filter: ExecutionFilter = {}) {
    return countByOutcome(this.db, filter);
  }
  async getExecution(id: string) {
    return getExecution(this.db, id);
  }
  async getExecutionRecord(id: string) {
    return getExecutionRecord(this.db, id);
  }
  async getSession(gateway: string, sessionId: string) {
    const row = cachedStatement(this.db, `${SESSION_SELECT} WHERE g.name = ? AND s.session_key = ?`).get(gateway, sessionId);
    return row ? sessionFromRow(row as Parameters<typeof sessionFromRow>[0]) : undefined;
  }
  async listGateways() {
    return listGateways(this.db);
  }
  async listSinkEvents(filter: SinkEventFilter = {}, page: { limit?: number; cursor?: string | null } = {}) {
    return listSinkEvents(this.db, filter, page);
  }
  async gatewayCounters(window: AggregateWindow = {}) {
    return gatewayCounters(this.db, window);
  }
  async timeBuckets(options: AggregateWindow & { since: string | number; until: string | number; bucketMs: number }) {
    return timeBuckets(this.db, options);
  }
  async facets() {
    return facets(this.db);
  }
  async shadowIds(ids: string[]) {
    return shadowIds(this.db, ids);
  }
  async toolErrorIds(ids: string[]) {
    return toolErrorIds(this.db, ids);
  }
  async listMessageSessions(gateway: string, options?: SessionListOptions) {
    return listMessageSessions(this.db, gateway, options);
  }
  async listMessages(filter: MessageFilter, page: MessagePageOptions = {}) {
    return listMessages(this.db, filter, page);
  }
  async getMessage(id: string) {
    return getMessage(this.db, id);
  }
  async messageMethods(gateway: string) {
    return messageMethods(this.db, gateway);
  }
  async countPrunable(options: RetentionOptions) {
    return countPrunable(this.db, options);
  }
  async prune(options: PruneOptions): Promise<PruneReport> {
    return pruneHistory(this.db, options);
  }
  async *exportLines(filter?: ExecutionFilter): AsyncGenerator<string> {
    yield* exportLines(this.db, filter);
  }
  async importFromString(text: string, options: ImportOptions = {}) {
    return importFromString(this.db, text, options);
  }
  async importFromFile(path: string, options: ImportOptions = {}) {
    return importFromFile(this.db, path, options);
  }
  async close(): Promise<void> {
    if (this.ownsStore) this.store.close();
  }
}
