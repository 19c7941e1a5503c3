// Shared by the history commands (history, export, import, prune): the --db option, opening the
// file with the store's checks, and turning the store's errors into CLI errors (usage → exit 2,
// failure → exit 1 with one line saying what to do, never a stack trace: a file damaged past its
// first page is only found out by the query that reads the damage).
import Database from 'better-sqlite3';
import { defaultDataDir } from '../../services/environment';
import { classifySqliteError, DB_ENV_VAR, openStore, openStoreForReading, QueryError, resolveDbPath, StoreOpenError, type Store } from '../../history/sqlite';
import { CliFailure, UsageError } from '../command';
import { isPostgresUrl, PgHistoryStore } from '../../history/postgres';
import { withPasswordFromFile } from '../../history/postgres/password';

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

/** Opens the PostgreSQL history (migrating it), runs the work, closes it; errors are one line without the password. */
export async function withPostgres<T>(url: string, work: (store: PgHistoryStore) => Promise<T>): Promise<T> {
  let store: PgHistoryStore;
  try {
    store = await PgHistoryStore.open(url);
  } catch (err) {
    throw new CliFailure(`cannot open the history database: ${(err as Error).message}`);
  }
  try {
    return await work(store);
  } catch (err) {
    if (err instanceof QueryError) throw new UsageError(err.message);
    throw err;
  } finally {
    await store.close();
  }
}

/**
 * Opens the history file. `read`: the command only reads (history, export), so a file on a
 * read-only path is opened read-only rather than refused (said on stderr).
 */
export function openHistory(flag: string | undefined, options: { create?: boolean; read?: boolean } = {}): Store {
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

/**
 * Runs a command's work on an open history and closes it: an SQLite error on the way (a page
 * damaged past the header, a disk that turned read-only, a lock held too long) becomes one line
 * naming the file and what to do.
 */
export async function withHistory<T>(store: Store, work: (store: Store) => T | Promise<T>): Promise<T> {
  try {
    return await work(store);
  } catch (err) {
    if (err instanceof Database.SqliteError) {
      throw new CliFailure(classifySqliteError(err, store.path).message);
    }
    throw err;
  } finally {
    store.close();
  }
}

/** Bad filter values are usage errors; anything else propagates. */
export function asUsage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof QueryError) throw new UsageError(err.message);
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
