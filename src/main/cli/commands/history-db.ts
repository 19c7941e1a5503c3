// Shared by the history commands (history, export, import, prune): the --db option, opening the
// file with the store's checks, and turning the store's errors into CLI errors (usage → exit 2,
// failure → exit 1 with what to do).
import { defaultDataDir } from '../../services/environment';
import { DB_ENV_VAR, openStore, QueryError, resolveDbPath, StoreOpenError, type Store } from '../../store';
import { CliFailure, UsageError } from '../command';

/** The --db flag every history command takes (spread into its parseFlags options). */
export const dbOption = { db: { type: 'string' } } as const;

/** The --db line of a usage text, its description starting at column `width` like the other options. */
export function dbUsage(width: number): string {
  return `${'  --db FILE'.padEnd(width)}the history database (default: $${DB_ENV_VAR}, else history.db in the data folder)`;
}

export function openHistory(flag: string | undefined, options: { create?: boolean } = {}): Store {
  const path = resolveDbPath({ ...(flag ? { flag } : {}), dataDir: defaultDataDir() });
  try {
    return openStore(path, { create: options.create ?? false });
  } catch (err) {
    if (err instanceof StoreOpenError) throw new CliFailure(err.message);
    throw err;
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
