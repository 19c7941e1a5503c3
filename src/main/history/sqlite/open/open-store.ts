// Opens (creating if asked) a history database: refuses foreign, corrupt or newer files without
// writing to them, then sets the connection policy (WAL, foreign keys, busy timeout) and migrates.
// The file holds recorded traffic: it is created 0600 (SQLite gives its -wal and -shm files the
// mode of the database file), and a file left 0644 by an older version is made 0600 when opened for writing.
import { closeSync } from 'node:fs';
import { createPrivateDirIfMissing, makePrivate, openPrivateFile } from '../../../files/private-files';
import { dirname, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { openDatabase } from '../../../native/sqlite-binding';
import { APPLICATION_ID, LATEST_VERSION, runMigrations } from '../migrations/index';
import { rewriteInListChecks } from '../migrations/check-constraints';
import { inspectFile } from './file-check';
import { checkIntegrity } from './integrity-check';
import { StoreOpenError } from './store-open-error';

export interface OpenStoreOptions {
  /** Create the file (and its folder) when absent. Default true; reading commands pass false. */
  create?: boolean;
  /** Open read-only: no pragma writes, no migrations (the file must already be current). */
  readonly?: boolean;
  /**
   * How long one statement waits for another process's write lock before SQLITE_BUSY. This wait
   * blocks the event loop, so the recorder keeps it short and retries asynchronously instead.
   */
  busyTimeoutMs?: number;
  /** Apply migrations up to this version only (tests of individual migrations). */
  migrateTo?: number;
  /** Page size of a new file (ignored for existing ones). */
  pageSize?: number;
  /**
   * Read every page once to refuse a damaged file (integrity-check.ts). Default true; only a second
   * connection to a file this process has just checked (the writer thread's) passes false.
   */
  checkIntegrity?: boolean;
}

/** Page size of new files. */
export const DEFAULT_PAGE_SIZE = 4096;

/** Pages of WAL after which a writing connection checkpoints (~32 MB); the writer thread's checkpointer turns it off while it runs. */
export const WAL_AUTOCHECKPOINT_PAGES = 8000;

export interface Store {
  readonly db: Database.Database;
  readonly path: string;
  close(): void;
}

export function openStore(path: string, options: OpenStoreOptions = {}): Store {
  const file = resolve(path);
  const create = options.create ?? true;
  const readonly = options.readonly ?? false;
  const state = inspectFile(file);
  if (state === 'absent') {
    if (!create || readonly) {
      throw new StoreOpenError('missing', file, `no history database at ${file}. Record some traffic first, or pass the right file with --db.`);
    }
    try {
      createPrivateDirIfMissing(dirname(file));
    } catch (err) {
      throw new StoreOpenError('io', file, `cannot create the folder of ${file}: ${(err as Error).message}`);
    }
    createEmptyPrivateFile(file);
  } else if (!readonly) {
    for (const f of [file, `${file}-wal`, `${file}-shm`]) makePrivate(f);
  }

  let db: Database.Database;
  try {
    db = openDatabase(file, { readonly, fileMustExist: state !== 'absent' });
  } catch (err) {
    throw new StoreOpenError('io', file, `cannot open ${file}: ${(err as Error).message}`);
  }
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.round(options.busyTimeoutMs ?? 5000))}`);
    verifyIdentity(db, file);
    if (options.checkIntegrity !== false && state === 'sqlite') checkIntegrity(db, file);
    if (!readonly) {
      const fresh = (db.pragma('user_version', { simple: true }) as number) === 0;
      // auto_vacuum can only be chosen before the first table exists; INCREMENTAL lets retention
      // hand freed pages back to the file system without rewriting the whole file.
      if (fresh) {
        db.pragma(`page_size = ${options.pageSize ?? DEFAULT_PAGE_SIZE}`);
        db.pragma('auto_vacuum = INCREMENTAL');
      }
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') throw new StoreOpenError('io', file, `${file}: WAL mode is unavailable (got "${String(mode)}"); use a local disk.`);
    }
    db.pragma('foreign_keys = ON');
    if (!readonly) {
      // NORMAL in WAL: a commit survives a crash of this process; only a power loss can lose the
      // last transactions. Recording favours throughput here.
      db.pragma('synchronous = NORMAL');
      // Checkpoint every ~32 MB of WAL instead of 4 MB: the pages every batch rewrites (index and
      // search-index tails) are copied into the file once per checkpoint, not once per 4 MB;
      // after a checkpoint the WAL file is cut back to 64 MB at most.
      db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
      db.pragma('journal_size_limit = 67108864');
    }
    if (readonly) {
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version < LATEST_VERSION) {
        throw new StoreOpenError(
          'newer',
          file,
          `${file} was written by an older version (schema ${version}) and is opened read-only, so it cannot be upgraded here; open it once where it can be written (or a copy of it) to upgrade it.`,
        );
      }
    } else {
      runMigrations(db, options.migrateTo ?? LATEST_VERSION);
      rewriteInListChecks(db);
    }
  } catch (err) {
    db.close();
    if (err instanceof StoreOpenError) throw err;
    throw classifySqliteError(err, file);
  }
  return {
    db,
    path: file,
    close() {
      if (db.open) db.close();
    },
  };
}

/** An empty file, 0600, for SQLite to initialise (two processes creating it at once both succeed). */
function createEmptyPrivateFile(file: string): void {
  try {
    closeSync(openPrivateFile(file, 'wx'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw new StoreOpenError('io', file, `cannot create ${file}: ${(err as Error).message}`);
  }
}

/** Refuses files this application did not create, before anything is written to them. */
function verifyIdentity(db: Database.Database, file: string): void {
  let appId: number;
  let version: number;
  let objects: number;
  try {
    appId = db.pragma('application_id', { simple: true }) as number;
    version = db.pragma('user_version', { simple: true }) as number;
    objects = (db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number }).n;
  } catch (err) {
    throw classifySqliteError(err, file);
  }
  if (appId === 0 && version === 0 && objects === 0) return; // an empty database: ours to initialise
  if (appId !== APPLICATION_ID) {
    throw new StoreOpenError(
      'foreign',
      file,
      `${file} is an SQLite database of another application (application_id ${appId}, ${objects} schema objects). It was left untouched; pass another path with --db (or INTERCEPTOR_CONSOLE_DB).`,
    );
  }
  if (version > LATEST_VERSION) {
    throw new StoreOpenError(
      'newer',
      file,
      `${file} was written by a newer Interceptor Console (schema ${version}, this one knows ${LATEST_VERSION}). It was left untouched; upgrade, or use another file with --db.`,
    );
  }
}

export function classifySqliteError(err: unknown, file: string): StoreOpenError {
  const code = (err as { code?: string }).code ?? '';
  const message = (err as Error).message ?? String(err);
  if (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB')) {
    return new StoreOpenError(
      'corrupt',
      file,
      `${file} is damaged (${message}). It was left untouched; restore it from a backup or an export, or use another file with --db.`,
    );
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return new StoreOpenError('read-only', file, `${file} cannot be written here (${message}): it is on a read-only path, or not yours.`);
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StoreOpenError('io', file, `${file} is locked by another process (${message}); try again when it is done.`);
  }
  return new StoreOpenError('io', file, `cannot open ${file}: ${message}`);
}
