// Opening history files: a fresh file gets the connection policy; a file that is not ours (not
// SQLite, another application's database, damaged, from a newer version) is refused with a clear
// error naming it, and is left byte-for-byte untouched.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LATEST_VERSION, openStore, resolveDbPath, StoreOpenError } from '../../src/main/history/sqlite';
import { tempDirsRemovedAfterEach } from './temp-dirs';

const dir = tempDirsRemovedAfterEach();
const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function refused(path: string, kind: string): StoreOpenError {
  try {
    openStore(path).close();
  } catch (err) {
    expect(err).toBeInstanceOf(StoreOpenError);
    expect((err as StoreOpenError).kind).toBe(kind);
    expect((err as Error).message).toContain(path);
    return err as StoreOpenError;
  }
  throw new Error(`${path} was opened`);
}

describe('openStore', () => {
  it('creates a fresh file (and its folder) in WAL mode with foreign keys, a busy timeout and incremental vacuum', () => {
    const path = join(dir(), 'nested', 'history.db');
    const store = openStore(path, { busyTimeoutMs: 1234 });
    try {
      expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(store.db.pragma('busy_timeout', { simple: true })).toBe(1234);
      expect(store.db.pragma('auto_vacuum', { simple: true })).toBe(2); // incremental
      expect(store.db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    } finally {
      store.close();
    }
    // Reopening an existing file works and changes nothing.
    openStore(path, { create: false }).close();
  });

  it('refuses a missing file when asked not to create one', () => {
    const path = join(dir(), 'absent.db');
    expect(() => openStore(path, { create: false })).toThrow(/no history database at .*absent\.db/);
    expect(existsSync(path)).toBe(false);
  });

  it('refuses a file that is not SQLite, untouched', () => {
    const path = join(dir(), 'notes.db');
    writeFileSync(path, 'these are my notes, not a database\n'.repeat(200));
    const before = digest(path);
    const err = refused(path, 'not-sqlite');
    expect(err.message).toMatch(/not an SQLite database.*left untouched.*--db/);
    expect(digest(path)).toBe(before);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it("refuses another application's SQLite database, untouched", () => {
    const path = join(dir(), 'other.db');
    const other = new Database(path);
    other.exec("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers (name) VALUES ('ada')");
    other.close();
    const before = digest(path);
    const err = refused(path, 'foreign');
    expect(err.message).toMatch(/another application.*left untouched/);
    expect(digest(path)).toBe(before);
    const check = new Database(path, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(check.prepare('SELECT name FROM customers').pluck().all()).toEqual(['ada']);
    check.close();
  });

  it('refuses a damaged history file, untouched', () => {
    const path = join(dir(), 'damaged.db');
    openStore(path).close();
    const bytes = readFileSync(path);
    // Keep the 100-byte header (it still says SQLite) and scribble over the schema page.
    bytes.fill(0x5a, 100, 4096);
    writeFileSync(path, bytes);
    const before = digest(path);
    const err = refused(path, 'corrupt');
    expect(err.message).toMatch(/damaged.*left untouched/);
    expect(digest(path)).toBe(before);
  });

  it('refuses a file written by a newer version, untouched', () => {
    const path = join(dir(), 'newer.db');
    openStore(path).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${LATEST_VERSION + 5}`);
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    const before = digest(path);
    refused(path, 'newer');
    expect(digest(path)).toBe(before);
  });

  it('refuses a directory', () => {
    refused(dir(), 'not-a-file');
  });
});

describe('resolveDbPath', () => {
  it('prefers --db, then INTERCEPTOR_CONSOLE_DB, then the data folder', () => {
    expect(resolveDbPath({ flag: '/x/a.db', dataDir: '/data', env: { INTERCEPTOR_CONSOLE_DB: '/y/b.db' } })).toBe('/x/a.db');
    expect(resolveDbPath({ dataDir: '/data', env: { INTERCEPTOR_CONSOLE_DB: '/y/b.db' } })).toBe('/y/b.db');
    expect(resolveDbPath({ dataDir: '/data', env: {} })).toBe(join('/data', 'history.db'));
  });
});
