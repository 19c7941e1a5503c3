// The PostgreSQL history store: one database shared by many gateways (and the consoles that read it).
export { isPostgresUrl, redactUrl, testConnection, PostgresConnectError } from './connection';
export { PgHistoryStore, openPgRecorder, openPgPool } from './pg-history-store';
export { PgRecorder, type PgRecorderOptions, type PgRecorderStats } from './pg-recorder';
export { pgMigrations, runPgMigrations, PG_LATEST_VERSION } from './migrations';
