// The SQLite engine's entry: the only file of history/sqlite that code outside history/ imports
// (test/gateway/layering.test.ts holds it). Recording chain executions, sink events and messages in an
// SQLite file, and reading them back through the store port (model/history-store.ts).
export { SqliteHistory, type RecordingHistoryOptions } from './sqlite-history';
export { SqliteHistoryStore } from './sqlite-history-store';
export { openStore, classifySqliteError, type OpenStoreOptions, type Store } from './open/open-store';
export { openStoreForReading } from './open/open-for-reading';
export { StoreOpenError, type StoreOpenErrorKind } from './open/store-open-error';
export { resolveDbPath, DB_ENV_VAR, DB_FILE_NAME } from './open/db-path';
export { defaultDataDir } from '../model/data-dir';
export { LATEST_VERSION, APPLICATION_ID, migrations, runMigrations } from './migrations/index';
export { SqliteHistoryWriter, type SqliteHistoryWriterOptions, type SqliteHistoryWriterStats } from './writer/sqlite-history-writer';
export { createRedactor, type RedactionOptions, type Redactor } from '../model/redaction/redactor';
export { RedactionPathError } from '../model/redaction/json-paths';
export type { ExecutionFilter } from './queries/filters';
export { QueryError } from '../model/query-error';
export { listExecutions, countExecutions, countByOutcome, type ExecutionSummary, type ExecutionPage, type PageOptions } from './queries/list-executions';
export { getExecution, getExecutionRecord, type ExecutionDetail } from './queries/execution-detail';
export { listGateways, type RecordedGateway } from './queries/gateways';
export { listSinkEvents, type SinkEvent, type SinkEventFilter, type SinkEventPage } from './queries/sink-events';
export {
  gatewayCounters,
  interceptorLatency,
  timeBuckets,
  type AggregateWindow,
  type GatewayCounters,
  type InterceptorLatency,
  type TimeBucket,
} from './queries/aggregates';
export { countPrunable, pruneHistory, type PruneOptions, type PruneResult } from './retention/prune';
export { exportLines, exportToString } from './portability/export-jsonl';
export { importFromFile, importFromString, ImportError, type ImportOptions, type ImportResult } from './portability/import-jsonl';
export { DEFAULT_MAX_LINE_BYTES } from '../model/portability/line-reader';
export {
  listMessages,
  getMessage,
  listMessageSessions,
  messageMethods,
  type MessageFilter,
  type MessageSummary,
  type MessageDetail,
  type MessageSessionSummary,
} from './queries/messages';
