// The batched recorder on real files, with the writer thread and with the in-thread fallback:
// batching (one transaction per batch, timer and size triggers), bounded memory with spill to
// disk, a full disk and a locked database (paused, retried, counted, nothing lost), records the
// store refuses (counted, never thrown into traffic).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../src/shared/trace/execution';
import { encodeExecution } from '../../src/main/history/model/encode/encode';
import { countExecutions, openStore, SqliteHistoryWriter, type SqliteHistoryWriterOptions } from '../../src/main/history/sqlite';
import { makeExecution, tempDir } from './fixtures';
import { waitFor } from '../support/wait-for';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function dbPath(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return join(t.dir, 'history.db');
}

function open(path: string, options: SqliteHistoryWriterOptions): SqliteHistoryWriter {
  const recorder = SqliteHistoryWriter.open(path, options);
  cleanups.unshift(() => recorder.close());
  return recorder;
}

function count(path: string): number {
  const store = openStore(path, { create: false });
  try {
    return countExecutions(store.db);
  } finally {
    store.close();
  }
}

const until = (check: () => boolean, what: string, ms = 10_000) => waitFor(check, ms, what);

const spillFiles = (path: string) => readdirSync(dirname(path)).filter((n) => n.startsWith(`${basename(path)}.spill-`));
const fast = { backoff: { baseMs: 20, maxMs: 100 } };

describe.each([
  ['writer thread', true],
  ['in-thread writer', false],
])('SqliteHistoryWriter (%s)', (_name, writerThread) => {
  it('writes one transaction per batch', async () => {
    const path = dbPath();
    const batches: number[] = [];
    const recorder = open(path, { writerThread, batchSize: 100, onWritten: (c) => batches.push(c.executions) });
    for (let i = 0; i < 250; i++) recorder.recordExecution(makeExecution());
    await recorder.flush();
    expect(batches).toEqual([100, 100, 50]);
    expect(recorder.stats()).toMatchObject({ queued: 0, written: 250, failed: 0, writer: writerThread ? 'worker' : 'in-thread' });
    expect(count(path)).toBe(250);
  });

  it('writes on its own: after the flush interval, and at once when a batch is full', async () => {
    const path = dbPath();
    const timed = open(path, { writerThread, flushIntervalMs: 50 });
    for (let i = 0; i < 10; i++) timed.recordExecution(makeExecution());
    await until(() => timed.stats().written === 10, 'the timer flush');

    const path2 = dbPath();
    const sized = open(path2, { writerThread, flushIntervalMs: 600_000, batchSize: 20 });
    for (let i = 0; i < 20; i++) sized.recordExecution(makeExecution());
    await until(() => sized.stats().written === 20, 'the size-triggered flush');
  });

  it('counts records it cannot store instead of throwing into traffic', async () => {
    const path = dbPath();
    const errors: string[] = [];
    const recorder = open(path, { writerThread, onError: (m) => errors.push(m) });
    const good = makeExecution();
    expect(() => recorder.recordExecution({ ...makeExecution(), outcome: 'maybe' } as unknown as ExecutionRecord)).not.toThrow();
    expect(() => recorder.recordExecution({ ...makeExecution(), requestReceived: { n: BigInt(1) } })).not.toThrow();
    recorder.recordExecution(good);
    recorder.recordExecution(good); // the same execution twice: stored once
    await recorder.flush();
    const stats = recorder.stats();
    expect(stats).toMatchObject({ written: 1, duplicates: 1, rejected: 2, failed: 2, lost: 0 });
    expect(errors.some((e) => /BigInt/.test(e))).toBe(true);
    expect(errors.some((e) => /outcome "maybe"/.test(e))).toBe(true);
    expect(count(path)).toBe(1);
  });

  it('writes the rest of a batch when the database refuses one record, and keeps that one aside', async () => {
    const path = dbPath();
    const recorder = open(path, { writerThread });
    recorder.recordExecution(makeExecution());
    await recorder.flush();
    const raw = new Database(path);
    raw.exec(`CREATE TRIGGER refuse_poison BEFORE INSERT ON executions WHEN NEW.uuid = 'poison'
      BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`);
    raw.close();
    for (let i = 0; i < 5; i++) recorder.recordExecution(makeExecution());
    recorder.recordExecution(makeExecution({ id: 'poison' }));
    for (let i = 0; i < 5; i++) recorder.recordExecution(makeExecution());
    await recorder.flush();
    const stats = recorder.stats();
    expect(stats).toMatchObject({ written: 11, rejected: 1, lost: 0, queued: 0 });
    expect(stats.lastError).toMatch(/execution poison was refused by the database.*refused for the test/);
    const kept = readFileSync(stats.deadLetterPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ reason: expect.stringMatching(/refused for the test/), item: { kind: 'execution', uuid: 'poison' } });
    expect(count(path)).toBe(11);
  });

  it('pauses on a full disk, retries with backoff, counts the failures and loses nothing', async () => {
    const path = dbPath();
    const recorder = open(path, { writerThread, ...fast });
    recorder.recordExecution(makeExecution());
    await recorder.flush();
    // The database may not grow by a single page: a full disk, as SQLite sees it.
    const pages = (() => {
      const s = openStore(path, { create: false });
      try {
        return s.db.pragma('page_count', { simple: true }) as number;
      } finally {
        s.close();
      }
    })();
    await recorder.execOnWriter(`PRAGMA max_page_count = ${pages}`);
    const big = 'x'.repeat(20_000);
    for (let i = 0; i < 30; i++) recorder.recordExecution(makeExecution({ text: `${big} ${i}` }));
    // Paused (waiting out its backoff) after three failed attempts: waited for, so a recorder that
    // never pauses times this out.
    await until(() => recorder.stats().retries >= 3 && recorder.stats().paused, 'a pause after three failed attempts');
    const paused = recorder.stats();
    expect(paused.paused).toBe(true);
    expect(paused.lastError).toMatch(/full/i);
    expect(paused.failed).toBeGreaterThanOrEqual(3);
    expect(paused.written).toBe(1);
    expect(paused.queued).toBe(30);
    expect(() => recorder.recordExecution(makeExecution())).not.toThrow(); // traffic goes on

    await recorder.execOnWriter('PRAGMA max_page_count = 1073741823'); // disk space is back
    await until(() => recorder.stats().written === 32, 'the backlog to drain');
    expect(recorder.stats()).toMatchObject({ queued: 0, lost: 0, rejected: 0 });
    expect(count(path)).toBe(32);
  });

  it('keeps every record exactly once when batches sent ahead meet a lock', async () => {
    const path = dbPath();
    const recorder = open(path, { writerThread, batchSize: 40, busyTimeoutMs: 20, ...fast });
    recorder.recordExecution(makeExecution());
    await recorder.flush();
    const other = new Database(path);
    const ids = new Set<string>();
    const record = (n: number) => {
      for (let i = 0; i < n; i++) {
        const rec = makeExecution();
        ids.add(rec.id);
        recorder.recordExecution(rec);
      }
    };
    try {
      record(200); // five full batches: one in flight, one sent ahead, the rest queued
      await until(() => recorder.stats().written > 1, 'the first batch to commit');
      other.exec('BEGIN EXCLUSIVE'); // lands under the batches still in flight or queued
      record(200);
      await until(() => recorder.stats().retries >= 1, 'a failed attempt under the lock');
    } finally {
      other.exec('COMMIT');
      other.close();
    }
    record(130);
    await recorder.flush();
    expect(recorder.stats()).toMatchObject({ queued: 0, written: 531, duplicates: 0, lost: 0, rejected: 0 });
    const store = openStore(path, { create: false });
    try {
      const stored = store.db.prepare('SELECT uuid FROM executions').pluck().all() as string[];
      expect(stored).toHaveLength(531);
      expect(stored.filter((id) => ids.has(id))).toHaveLength(530);
    } finally {
      store.close();
    }
  });

  it('waits out a database locked by another process, counting the retries', async () => {
    const path = dbPath();
    const recorder = open(path, { writerThread, busyTimeoutMs: 30, ...fast });
    recorder.recordExecution(makeExecution());
    await recorder.flush();
    const other = new Database(path);
    other.pragma('busy_timeout = 5000');
    other.exec('BEGIN EXCLUSIVE');
    try {
      for (let i = 0; i < 20; i++) recorder.recordExecution(makeExecution());
      await until(() => recorder.stats().retries >= 2, 'retries while locked');
      expect(recorder.stats().lastError).toMatch(/locked|busy/i);
      expect(recorder.stats().written).toBe(1);
    } finally {
      other.exec('COMMIT');
      other.close();
    }
    await until(() => recorder.stats().written === 21, 'writes after the lock is released');
    expect(recorder.stats()).toMatchObject({ queued: 0, lost: 0 });
    expect(count(path)).toBe(21);
  });

  it('bounds its memory by spilling to disk, then drains the spill file', async () => {
    const path = dbPath();
    const recorder = open(path, { writerThread, busyTimeoutMs: 30, maxQueueItems: 10, flushTimeoutMs: 300, ...fast });
    recorder.recordExecution(makeExecution());
    await recorder.flush();
    const other = new Database(path);
    other.exec('BEGIN EXCLUSIVE');
    try {
      for (let i = 0; i < 100; i++) recorder.recordExecution(makeExecution({ text: `spilled record ${i}` }));
      const stats = recorder.stats();
      expect(stats.queued).toBe(100);
      expect(stats.spilled).toBeGreaterThanOrEqual(90);
      // flush() under a lasting lock makes everything durable in the spill file and returns.
      await recorder.flush();
      expect(recorder.stats().spilled).toBe(100);
      expect(spillFiles(path)).toHaveLength(1);
    } finally {
      other.exec('COMMIT');
      other.close();
    }
    await until(() => recorder.stats().written === 101, 'the spill file to drain');
    await recorder.flush();
    expect(spillFiles(path)).toHaveLength(0);
    expect(count(path)).toBe(101);
  });
});

describe('spill files of a process that died', () => {
  it('are adopted and drained by the next recorder (torn last line counted, not fatal)', async () => {
    const path = dbPath();
    openStore(path).close();
    const orphan = `${path}.spill-999999-deadbeef.jsonl`; // pid 999999: not running
    const lines = Array.from({ length: 5 }, (_, i) => JSON.stringify(encodeExecution(makeExecution({ text: `orphan ${i}` }))));
    writeFileSync(orphan, `${lines.join('\n')}\n{"kind":"execution","uu`); // the crash tore the last line
    const recorder = open(path, { writerThread: false, flushIntervalMs: 10 });
    await until(() => recorder.stats().written === 5, 'the orphan spill file to drain');
    await until(() => !existsSync(orphan) && spillFiles(path).length === 0, 'the spill file to go');
    expect(recorder.stats()).toMatchObject({ lost: 1 });
    expect(count(path)).toBe(5);
  });
});
