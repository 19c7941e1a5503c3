// Shared by the history commands (history, export, import, prune): the --db option, opening the
// history it names (SQLite file or PostgreSQL) as the one store port with the store's checks, and
// turning the store's errors into CLI errors (usage → exit 2,
// failure → exit 1 with one line saying what to do, never a stack trace: a file damaged past its
// first page is only found out by the query that reads the damage).
import Database from 'better-sqlite3';
import { defaultDataDir } from '../../services/environment';
import type { HistoryStore } from '../../history/model/history-store';
import { QueryError } from '../../history/model/query-error';
import {
  classifySqliteError,
  DB_ENV_VAR,
  openStore,
  openStoreForReading,
  resolveDbPath,
  SqliteHistoryStore,
  StoreOpenError,
  type Store,
} from '../../history/sqlite';
import { isPostgresUrl, PgHistoryStore, withPasswordFromFile } from '../../history/postgres';
import { CliFailure, UsageError } from '../command';

/** The --db flag every history command takes (spread into its parseFlags options), with the password file for a PostgreSQL URL. */
export const dbOption = { db: { type: 'string' }, 'db-password-file': { type: 'string' } } as const;

/**
 * --db with the password of --db-password-file put in: the URL on a command line (visible to every
 * local user) then needs none. Without the option, a URL without password uses PGPASSWORD (read by pg).
 */
export function withDbPassword(db: string | undefined, passwordFile: string | undefined): string | undefined {
  if (passwordFile === undefined) return db;
  const target = db ?? process.env[DB_ENV_VAR];
  if (!isPostgresUrl(target))
    throw new UsageError(`--db-password-file goes with a PostgreSQL history: give --db postgres://USER@HOST:PORT/DB (or $${DB_ENV_VAR})`);
  try {
    return withPasswordFromFile(target, passwordFile);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** The --db line of a usage text, its description starting at column `width` like the other options. */
export function dbUsage(width: number): string {
  return `${'  --db FILE|URL'.padEnd(width)}the history database: a file, or postgres://USER:PASSWORD@HOST/DB for a
${' '.repeat(width)}shared PostgreSQL (default: $${DB_ENV_VAR}, else history.db in the data folder)
${'  --db-password-file F'.padEnd(width)}the PostgreSQL password, from this file's first line (keep it 0600),
${' '.repeat(width)}so the URL needs none; without it a URL without password uses $PGPASSWORD`;
}

/** The PostgreSQL connection string the history commands use (--db, else the environment), if any. */
export function postgresTarget(flag: string | undefined, passwordFile?: string): string | undefined {
  const value = withDbPassword(flag, passwordFile) ?? process.env[DB_ENV_VAR];
  return isPostgresUrl(value) ? value.trim() : undefined;
}

/**
 * Opens the history --db names (an SQLite file, or PostgreSQL for a postgres:// URL, migrated on open),
 * runs the command's work on the store port, and closes it. `read`: the command only reads (history,
 * export), so an SQLite file on a read-only path is opened read-only rather than refused (said on stderr);
 * `create`: a missing SQLite file is created (import). A bad filter value is a usage error; an SQLite error
 * on the way (a page damaged past the header, a disk that turned read-only, a lock held too long) becomes
 * one line naming the file and what to do; a server that cannot be reached, one line without the password.
 */
export async function withHistoryStore<T>(
  values: { db?: string | undefined; 'db-password-file'?: string | undefined },
  options: { create?: boolean; read?: boolean },
  work: (store: HistoryStore) => Promise<T>,
): Promise<T> {
  const pg = postgresTarget(values.db, values['db-password-file']);
  const store = pg ? await openPostgres(pg) : new SqliteHistoryStore(openSqliteFile(values.db, options), true);
  try {
    return await work(store);
  } catch (err) {
    if (err instanceof QueryError) throw new UsageError(err.message);
    if (err instanceof Database.SqliteError) throw new CliFailure(classifySqliteError(err, store.location).message);
    throw err;
  } finally {
    await store.close();
  }
}

async function openPostgres(url: string): Promise<HistoryStore> {
  try {
    return await PgHistoryStore.open(url);
  } catch (err) {
    throw new CliFailure(`cannot open the history database: ${(err as Error).message}`);
  }
}

function openSqliteFile(flag: string | undefined, options: { create?: boolean; read?: boolean }): Store {
  const path = resolveDbPath({ ...(flag ? { flag } : {}), dataDir: defaultDataDir() });
  try {
    if (options.read) {
      return openStoreForReading(path, {
        onReadOnly: (how) => console.error(`note: ${path} is on a read-only path; reading it ${how === 'copy' ? 'from a temporary copy' : 'read-only'}`),
      });
    }
    return openStore(path, { create: options.create ?? false });
  } catch (err) {
    if (err instanceof StoreOpenError) throw new CliFailure(err.message);
    throw err;
  }
}

export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) <= 0) throw new UsageError(`${flag} must be a positive whole number, got "${value}"`);
  return Number(value);
}

export function positiveNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number, got "${value}"`);
  return n;
}
