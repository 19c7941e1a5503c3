// The PostgreSQL history store: one database shared by many gateways (and the consoles that read it).
export { isPostgresUrl, redactUrl, testConnection, PostgresConnectError } from './connection';
export { PgHistoryStore, openPgHistoryWriter, openPgPool } from './pg-history-store';
export { PgHistoryWriter, type PgHistoryWriterOptions, type PgHistoryWriterStats } from './pg-history-writer';
export { pgMigrations, runPgMigrations, PG_LATEST_VERSION } from './migrations';
