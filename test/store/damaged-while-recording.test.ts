// A history file damaged while a recorder writes to it (an open checks the whole file, damaged-open.test.ts; this
// is what comes after). The recorder cannot mend it: each attempt says the file is damaged and what to do,
// records are kept (memory, then the spill file on close), and once the file is moved aside the next
// recorder on that path writes them into the new file. Real SQLite files, pages overwritten on disk.
import { closeSync, existsSync, openSync, readdirSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { countExecutions, openStore, SqliteHistoryWriter } from '../../src/main/history/sqlite';
import { makeExecution, tempDir } from './fixtures';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** Overwrites the root page of the executions' gateway index in the file, then makes a write through another connection so every open connection drops its cached pages. */
function damageIndex(path: string): void {
  const db = new Database(path);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const root = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'executions_by_gateway'").pluck().get() as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (root - 1) * pageSize);
    closeSync(fd);
    db.prepare("INSERT INTO meta (key, value) VALUES ('test-bump', '1') ON CONFLICT (key) DO UPDATE SET value = value + 1").run();
  } finally {
    db.close();
  }
}

describe.each([false, true])('a history file damaged while recording (writer thread: %s)', (writerThread) => {
  it('says the file is damaged and what to do, keeps the records, and writes them into the file that replaces it', async () => {
    const { dir, cleanup } = tempDir('ic-damaged-recording-');
    cleanups.push(cleanup);
    const path = join(dir, 'history.db');
    const errors: string[] = [];
    const recorder = SqliteHistoryWriter.open(path, { writerThread, flushTimeoutMs: 300, backoff: { baseMs: 20, maxMs: 50 }, onError: (m) => errors.push(m) });
    recorder.recordExecution(makeExecution({ text: 'before the damage' }));
    await recorder.flush();
    expect(recorder.stats().written).toBe(1);

    damageIndex(path);
    const kept = makeExecution({ text: 'recorded while the file is damaged' });
    recorder.recordExecution(kept);
    await recorder.flush(); // gives up after flushTimeoutMs: spilled, not lost
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toContain(`recording paused: ${path} is damaged (SQLITE_CORRUPT`);
    expect(errors[0]).toMatch(/restore the file from a backup or an export, or move it aside with its -wal and -shm files and start again/);
    expect(recorder.stats()).toMatchObject({ lost: 0, rejected: 0 });
    await recorder.close();
    expect(readdirSync(dir).some((f) => f.startsWith('history.db.spill-'))).toBe(true);

    // What the message says to do: move the damaged file aside and start again.
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(path + suffix)) renameSync(path + suffix, join(dir, `damaged.db${suffix}`));
    const next = SqliteHistoryWriter.open(path, { writerThread: false });
    await next.flush();
    await next.close();
    const store = openStore(path, { create: false });
    try {
      expect(countExecutions(store.db, {})).toBe(1);
      expect(store.db.prepare('SELECT uuid FROM executions').pluck().all()).toEqual([kept.id]);
    } finally {
      store.close();
    }
  });
});
