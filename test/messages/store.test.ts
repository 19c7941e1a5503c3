// The messages table on a real SQLite file: written through the recorder (batched, journaled), big
// messages cut at 64 Ki characters and marked, redaction at rest applied, a replayed record written once,
// and retention deleting the messages older than the oldest execution it keeps.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedactor, getMessage, listMessages, openStore, pruneHistory, SqliteRecorder } from '../../src/main/store';
import { MESSAGE_BODY_LIMIT, type MessageRecord } from '../../src/shared/trace/messages';
import { makeExecution, tempDir } from '../store/fixtures';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const DAY = 86_400_000;
const NOW = Date.now();

function dbPath(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return join(t.dir, 'history.db');
}

function message(at: number, body: unknown, extra: Partial<MessageRecord> = {}): MessageRecord {
  return { id: randomUUID(), gateway: 'demo', sessionId: 's1', at, side: 'client', direction: 'in', kind: 'request', method: 'tools/call', jsonrpcId: 1, message: body, ...extra };
}

describe('messages in the store', () => {
  it('cuts a big message at 64 Ki characters, marks it, and keeps its full size', async () => {
    const path = dbPath();
    const recorder = SqliteRecorder.open(path, { writerThread: false });
    const big = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'é'.repeat(100_000) } } };
    const small = message(NOW, { jsonrpc: '2.0', id: 2, method: 'ping' }, { method: 'ping', jsonrpcId: 2 });
    const first = message(NOW, big);
    recorder.recordMessage(first);
    recorder.recordMessage(small);
    recorder.recordMessage(small); // a journal replay hands the same record again: written once
    await recorder.close();
    const store = openStore(path, { create: false });
    cleanups.unshift(() => store.close());
    const detail = getMessage(store.db, first.id)!;
    expect(detail.truncated).toBe(true);
    expect(detail.body.length).toBe(MESSAGE_BODY_LIMIT);
    expect(detail.size).toBe(Buffer.byteLength(JSON.stringify(big)));
    expect(getMessage(store.db, small.id)).toMatchObject({ truncated: false, method: 'ping', jsonrpcId: 2, body: JSON.stringify(small.message) });
    expect(listMessages(store.db, { gateway: 'demo' }).items).toHaveLength(2);
  });

  it('applies the redaction at rest to message payloads', async () => {
    const path = dbPath();
    const recorder = SqliteRecorder.open(path, { writerThread: false, redactor: createRedactor({ paths: ['arguments.password'] })! });
    const m = message(NOW, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'login', arguments: { password: 'hunter2', user: 'ann' } } });
    recorder.recordMessage(m);
    await recorder.close();
    const store = openStore(path, { create: false });
    cleanups.unshift(() => store.close());
    const body = getMessage(store.db, m.id)!.body;
    expect(body).not.toContain('hunter2');
    expect(body).toContain('[REDACTED]');
    expect(body).toContain('ann');
  });

  it('retention deletes messages older than the oldest execution kept, by age and by count', async () => {
    const path = dbPath();
    const recorder = SqliteRecorder.open(path, { writerThread: false });
    for (let day = 10; day >= 1; day--) {
      const at = NOW - day * DAY;
      recorder.recordExecution(makeExecution({ gateway: 'demo', sessionId: 's1', startedAt: new Date(at).toISOString(), outcome: 'allow' }));
      for (let i = 0; i < 5; i++) recorder.recordMessage(message(at + i, { jsonrpc: '2.0', method: 'notifications/progress', params: { day } }));
    }
    await recorder.close();
    const store = openStore(path, { create: false });
    cleanups.unshift(() => store.close());
    const count = () => store.db.prepare('SELECT count(*) FROM messages').pluck().get() as number;
    expect(count()).toBe(50);
    const byAge = pruneHistory(store.db, { maxAgeDays: 5.5 });
    expect(byAge.deleted).toBe(5);
    expect(byAge.messagesDeleted).toBe(25);
    const byCount = pruneHistory(store.db, { maxExecutions: 2 });
    expect(byCount.deleted).toBe(3);
    expect(byCount.messagesDeleted).toBe(15);
    // What is left is the newest two days' messages.
    const left = listMessages(store.db, { gateway: 'demo' }, { limit: 100 }).items;
    expect(left).toHaveLength(10);
    expect(Math.min(...left.map((m) => Date.parse(m.at)))).toBe(NOW - 2 * DAY);
  });
});

describe('filters the indexes do not answer', () => {
  it('read a bounded number of rows per call and say where to go on, so a rare match deep in the history is still found', async () => {
    const path = dbPath();
    const recorder = SqliteRecorder.open(path, { writerThread: false });
    const rare = message(NOW - 10_000, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: { text: 'needle-in-the-haystack' } } });
    recorder.recordMessage(rare);
    for (let i = 0; i < 3000; i++) recorder.recordMessage(message(NOW + i, { jsonrpc: '2.0', method: 'notifications/progress', params: { i } }, { kind: 'notification', method: 'notifications/progress' }));
    await recorder.close();
    const store = openStore(path, { create: false });
    cleanups.unshift(() => store.close());
    const pages: number[] = [];
    let cursor: string | null = null;
    const found: string[] = [];
    do {
      const page = listMessages(store.db, { gateway: 'demo', search: 'needle-in-the' }, { limit: 50, cursor, scanLimit: 1000 });
      pages.push(page.items.length);
      found.push(...page.items.map((m) => m.id));
      cursor = page.nextCursor;
    } while (cursor !== null && pages.length < 10);
    // 3,001 rows in walks of 1,000: three empty steps, then the match at the oldest end, then the end.
    expect(pages).toEqual([0, 0, 0, 1]);
    expect(found).toEqual([rare.id]);
    // Filters on an index are not bounded that way: a page is a page.
    expect(listMessages(store.db, { gateway: 'demo', method: 'tools/call' }, { limit: 50, scanLimit: 1000 }).items.map((m) => m.id)).toEqual([rare.id]);
  });
});
