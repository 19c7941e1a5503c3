// Retention on a real file: by count and by age, with everything an execution owns, payloads no
// one uses any more, sessions left empty, and the space handed back to the disk.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countExecutions, listExecutions, listSinkEvents, openStore, pruneHistory, SqliteHistoryWriter, type Store } from '../../src/main/history/sqlite';
import { makeExecution, tempDir } from './fixtures';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const DAY = 86_400_000;
const NOW = Date.UTC(2025, 6, 1);

async function history(): Promise<{ path: string; store: Store }> {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const path = join(t.dir, 'history.db');
  const recorder = SqliteHistoryWriter.open(path, { writerThread: false });
  // 10 days, 20 executions a day; each day's executions share one large (8 KB) payload.
  for (let day = 10; day >= 1; day--) {
    recorder.recordSession({ id: `day-${day}`, gateway: 'demo', startedAt: new Date(NOW - day * DAY).toISOString() });
    for (let i = 0; i < 20; i++) {
      const rec = makeExecution({ sessionId: `day-${day}`, startedAt: new Date(NOW - day * DAY + i * 1000).toISOString(), outcome: 'allow' });
      rec.responseReturned = { content: [{ type: 'text', text: `day ${day} `.repeat(1000) }] };
      recorder.recordExecution(rec);
    }
  }
  await recorder.close();
  const store = openStore(path, { create: false });
  cleanups.unshift(() => store.close());
  return { path, store };
}

const count = (store: Store, sql: string) => store.db.prepare(sql).pluck().get() as number;

describe('pruneHistory', () => {
  it('keeps the newest N executions and deletes what only the others used', async () => {
    const { store } = await history();
    expect(count(store, 'SELECT count(*) FROM payloads')).toBe(10);
    const result = pruneHistory(store.db, { maxExecutions: 50 });
    expect(result.deleted).toBe(150);
    expect(countExecutions(store.db)).toBe(50);
    const oldest = listExecutions(store.db, {}, { limit: 1000 }).items.at(-1)!;
    expect(oldest.startedAt).toBe(new Date(NOW - 3 * DAY + 10 * 1000).toISOString());
    // Steps, sink events and details went with their executions.
    expect(count(store, 'SELECT count(*) FROM steps')).toBe(50 * 4);
    expect(count(store, 'SELECT count(*) FROM execution_details')).toBe(50);
    expect(listSinkEvents(store.db, {}, { limit: 1000 }).items).toHaveLength(100);
    // Payloads of days 10..4 are gone; day 3's is still used by its last 10 executions.
    expect(result.payloadsDeleted).toBe(7);
    expect(count(store, 'SELECT count(*) FROM payloads')).toBe(3);
    expect(result.sessionsDeleted).toBe(7);
    // The search index forgot the deleted executions.
    expect(listExecutions(store.db, { search: 'day 9' }).items).toEqual([]);
  });

  it('deletes executions older than D days and gives the space back', async () => {
    const { path, store } = await history();
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const before = statSync(path).size;
    const result = pruneHistory(store.db, { maxAgeDays: 4.5, now: NOW });
    expect(result.deleted).toBe(120); // days 10..5
    expect(countExecutions(store.db)).toBe(80);
    expect(countExecutions(store.db, { until: NOW - 4.5 * DAY })).toBe(0);
    expect(result.bytesAfter).toBeLessThan(result.bytesBefore);
    expect(statSync(path).size).toBeLessThan(before);
    expect(store.db.pragma('freelist_count', { simple: true })).toBe(0);
  });

  it('combines both limits, deletes nothing without a match, and can rewrite the file', async () => {
    const { store } = await history();
    expect(pruneHistory(store.db, { maxAgeDays: 100, now: NOW }).deleted).toBe(0);
    expect(pruneHistory(store.db, { maxExecutions: 500 }).deleted).toBe(0);
    const both = pruneHistory(store.db, { maxAgeDays: 2.5, maxExecutions: 100, now: NOW, fullVacuum: true });
    expect(both.deleted).toBe(160); // age keeps 40, the stricter limit
    expect(countExecutions(store.db)).toBe(40);
  });
});
