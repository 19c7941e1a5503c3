// The PostgreSQL engine's entry: the only file of history/postgres that code outside history/ imports
// (test/gateway/layering.test.ts holds it). One database shared by many gateways (and the consoles that read it).
export { PgHistory, type PgRecordingHistoryOptions } from './pg-history';
export { splitPassword, withPasswordFromFile } from './password';
export { isPostgresUrl, redactUrl, testConnection, PostgresConnectError } from './connection';
export { PgHistoryStore, openPgHistoryWriter, openPgPool } from './pg-history-store';
export { PgHistoryWriter, type PgHistoryWriterOptions, type PgHistoryWriterStats } from './pg-history-writer';
export { pgMigrations, runPgMigrations, PG_LATEST_VERSION } from './migrations';
