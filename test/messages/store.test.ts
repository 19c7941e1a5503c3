// The messages table on both engines (an SQLite file, a PostgreSQL server) through the store port:
// written through the recorder (batched), big messages cut at 64 Ki characters and marked, redaction at
// rest applied, a replayed record written once, retention deleting the messages older than the oldest
// execution it keeps, and every read of the Messages view (sessions, filtered keyset pages, detail,
// methods). One suite: every case runs on each engine, with the same expected answers.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRedactor, QueryError } from '../../src/main/history/sqlite';
import type { HistoryStore } from '../../src/main/history/model/history-store';
import type { MessageFilter, MessageSummary } from '../../src/main/history/sqlite/queries/messages';
import { MESSAGE_BODY_LIMIT, type MessageRecord } from '../../src/shared/trace/messages';
import { makeExecution } from '../store/fixtures';
import { ENGINES } from '../store/engines';

const DAY = 86_400_000;
const NOW = Date.now();

function message(at: number, body: unknown, extra: Partial<MessageRecord> = {}): MessageRecord {
  return {
    id: randomUUID(),
    gateway: 'demo',
    sessionId: 's1',
    at,
    side: 'client',
    direction: 'in',
    kind: 'request',
    method: 'tools/call',
    jsonrpcId: 1,
    message: body,
    ...extra,
  };
}

/** Every page of a filter, following the cursors (a bounded step may come back short or empty). */
async function allPages(store: HistoryStore, filter: MessageFilter, limit: number, scanLimit?: number): Promise<{ ids: string[]; pages: number[] }> {
  const ids: string[] = [];
  const pages: number[] = [];
  let cursor: string | null = null;
  do {
    const page = await store.listMessages(filter, { limit, cursor, ...(scanLimit ? { scanLimit } : {}) });
    pages.push(page.items.length);
    ids.push(...page.items.map((m) => m.id));
    cursor = page.nextCursor;
  } while (cursor !== null && pages.length < 100);
  return { ids, pages };
}

describe.each(ENGINES)('$name: messages in the store', (engine) => {
  if (engine.skip) {
    it.skip(`skipped: ${engine.skip}`, () => {});
    return;
  }

  it('cuts a big message at 64 Ki characters, marks it, and keeps its full size; a replayed record is written once', async () => {
    const history = await engine.create();
    const recorder = await history.recorder();
    const big = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'é'.repeat(100_000) } } };
    const small = message(NOW, { jsonrpc: '2.0', id: 2, method: 'ping' }, { method: 'ping', jsonrpcId: 2 });
    const first = message(NOW, big);
    // An emoji run placed so that the cut falls between the two halves of a surrogate pair.
    const probe = JSON.stringify({ jsonrpc: '2.0', id: 3, params: { t: '' } });
    const pad = 'x'.repeat((MESSAGE_BODY_LIMIT - probe.indexOf('"t":"') - 5) % 2 === 0 ? 1 : 0);
    const emoji = message(NOW + 1, { jsonrpc: '2.0', id: 3, params: { t: pad + '😀'.repeat(40_000) } }, { jsonrpcId: 3 });
    recorder.recordMessage!(first);
    recorder.recordMessage!(small);
    recorder.recordMessage!(small); // a journal replay hands the same record again: written once
    recorder.recordMessage!(emoji);
    await recorder.close();
    const store = await history.open();
    const detail = (await store.getMessage(first.id))!;
    expect(detail.truncated).toBe(true);
    expect(detail.body.length).toBe(MESSAGE_BODY_LIMIT);
    expect(detail.size).toBe(Buffer.byteLength(JSON.stringify(big)));
    expect(await store.getMessage(small.id)).toMatchObject({
      truncated: false,
      method: 'ping',
      jsonrpcId: 2,
      body: JSON.stringify(small.message),
      gateway: 'demo',
    });
    // The half pair at the cut is kept as U+FFFD: the message is stored, not refused.
    const cut = (await store.getMessage(emoji.id))!;
    expect(cut).toMatchObject({ truncated: true, size: Buffer.byteLength(JSON.stringify(emoji.message)) });
    expect(cut.body.length).toBe(MESSAGE_BODY_LIMIT);
    expect(cut.body.endsWith('😀\ufffd')).toBe(true);
    expect((await store.listMessages({ gateway: 'demo' })).items).toHaveLength(3);
  });

  it('applies the redaction at rest to message payloads', async () => {
    const history = await engine.create();
    const recorder = await history.recorder({ redactor: createRedactor({ paths: ['arguments.password'] })! });
    const m = message(NOW, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'login', arguments: { password: 'hunter2', user: 'ann' } } });
    recorder.recordMessage!(m);
    await recorder.close();
    const store = await history.open();
    const body = (await store.getMessage(m.id))!.body;
    expect(body).not.toContain('hunter2');
    expect(body).toContain('[REDACTED]');
    expect(body).toContain('ann');
    expect((await store.listMessages({ gateway: 'demo', search: 'hunter2' })).items).toEqual([]);
  });

  it('retention deletes messages older than the oldest execution kept, by age and by count, and says how many', async () => {
    const history = await engine.create();
    const recorder = await history.recorder();
    for (let day = 10; day >= 1; day--) {
      const at = NOW - day * DAY;
      recorder.recordExecution(makeExecution({ gateway: 'demo', sessionId: 's1', startedAt: new Date(at).toISOString(), outcome: 'allow' }));
      for (let i = 0; i < 5; i++) recorder.recordMessage!(message(at + i, { jsonrpc: '2.0', method: 'notifications/progress', params: { day } }));
    }
    await recorder.close();
    const store = await history.open();
    const count = async () => (await store.listMessages({ gateway: 'demo' }, { limit: 1000 })).items.length;
    expect(await count()).toBe(50);
    // SQLite's report also has its file figures (payloads, sessions, bytes): the counts are what both engines share.
    expect(await store.prune({ maxAgeDays: 5.5, now: NOW })).toMatchObject({ deleted: 5, messagesDeleted: 25 });
    expect(await store.prune({ maxExecutions: 2 })).toMatchObject({ deleted: 3, messagesDeleted: 15 });
    // What is left is the newest two days' messages.
    const left = (await store.listMessages({ gateway: 'demo' }, { limit: 100 })).items;
    expect(left).toHaveLength(10);
    expect(Math.min(...left.map((m) => Date.parse(m.at)))).toBe(NOW - 2 * DAY);
    expect(await store.prune({ maxExecutions: 0 })).toMatchObject({ deleted: 2, messagesDeleted: 10 });
    expect(await count()).toBe(0);
  });

  it('reads a bounded number of rows per call for filters no index answers, and says where to go on', async () => {
    const history = await engine.create();
    const recorder = await history.recorder();
    const rare = message(NOW - 10_000, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: { text: 'needle-in-the-haystack' } } });
    recorder.recordMessage!(rare);
    for (let i = 0; i < 3000; i++)
      recorder.recordMessage!(
        message(NOW + i, { jsonrpc: '2.0', method: 'notifications/progress', params: { i } }, { kind: 'notification', method: 'notifications/progress' }),
      );
    await recorder.close();
    const store = await history.open();
    // 3,001 rows in walks of 1,000: three empty steps, then the match at the oldest end, then the end.
    expect(await allPages(store, { gateway: 'demo', search: 'needle-in-the' }, 50, 1000)).toEqual({ ids: [rare.id], pages: [0, 0, 0, 1] });
    // Filters on an index are not bounded that way: a page is a page.
    expect((await store.listMessages({ gateway: 'demo', method: 'tools/call' }, { limit: 50, scanLimit: 1000 })).items.map((m) => m.id)).toEqual([rare.id]);
  });

  it("dates the gateway's own traffic without its health pings when they are hidden, and leaves it out when it has nothing else", async () => {
    const history = await engine.create();
    const recorder = await history.recorder();
    const own = (gateway: string, at: number, extra: Partial<MessageRecord>) =>
      recorder.recordMessage!(
        message(
          at,
          { jsonrpc: '2.0', id: at, method: extra.method },
          { gateway, sessionId: undefined, side: 'interceptor', peer: 'samples', jsonrpcId: at, ...extra },
        ),
      );
    const ping = (gateway: string, at: number) => {
      own(gateway, at, { direction: 'out', kind: 'request', method: 'ping' });
      own(gateway, at + 1, { direction: 'in', kind: 'response', method: 'ping' });
    };
    // Discovery at start, a session's call, then the health pings that go on every 15 s.
    own('demo', NOW, { direction: 'out', kind: 'request', method: 'interceptors/list' });
    recorder.recordMessage!(message(NOW + 5, { jsonrpc: '2.0', id: 1, method: 'tools/call' }));
    for (let i = 1; i <= 20; i++) ping('demo', NOW + i * 15_000);
    for (let i = 1; i <= 3; i++) ping('quiet', NOW + i * 15_000);
    await recorder.close();
    const store = await history.open();
    const lastPing = new Date(NOW + 20 * 15_000 + 1).toISOString();
    expect(await store.listMessageSessions('demo')).toEqual([
      { sessionId: null, lastAt: lastPing },
      { sessionId: 's1', lastAt: new Date(NOW + 5).toISOString() },
    ]);
    expect(await store.listMessageSessions('demo', { hideHealthPings: true })).toEqual([
      { sessionId: 's1', lastAt: new Date(NOW + 5).toISOString() },
      { sessionId: null, lastAt: new Date(NOW).toISOString() },
    ]);
    // Nothing but pings: listed only while they are shown.
    expect(await store.listMessageSessions('quiet', { hideHealthPings: true })).toEqual([]);
    expect(await store.listMessageSessions('quiet')).toEqual([{ sessionId: null, lastAt: new Date(NOW + 45_001).toISOString() }]);
  });

  it("leaves out the gateway's health pings when asked (not a client's ping), and the methods a filter excludes, page by page", async () => {
    const history = await engine.create();
    const recorder = await history.recorder({ batchSize: 5 });
    const exec = randomUUID();
    const records: { r: MessageRecord; health: boolean }[] = [];
    const add = (health: boolean, extra: Partial<MessageRecord>) => {
      const i = records.length;
      records.push({
        health,
        r: message(NOW + i, { jsonrpc: '2.0', method: extra.method, params: { i } }, { sessionId: undefined, jsonrpcId: i, method: undefined, ...extra }),
      });
    };
    for (let round = 0; round < 3; round++) {
      // The gateway pings an interceptor server (interceptors/client/health.ts) and gets its answer, or an error.
      add(true, { side: 'interceptor', peer: 'samples', direction: 'out', kind: 'request', method: 'ping' });
      add(true, { side: 'interceptor', peer: 'samples', direction: 'in', kind: round === 2 ? 'error' : 'response', method: 'ping' });
      add(false, { sessionId: 's1', side: 'client', direction: 'in', kind: 'notification', method: 'notifications/progress' });
    }
    // A ping of the gateway's own to a backend (no session, no execution) is one too.
    add(true, { side: 'backend', peer: 'everything', direction: 'out', kind: 'request', method: 'ping' });
    // A client's ping on every hop carries the execution its request opened: never a health ping.
    add(false, { sessionId: 's1', side: 'client', direction: 'in', kind: 'request', method: 'ping', executionId: exec });
    add(false, { sessionId: 's1', side: 'backend', direction: 'out', kind: 'request', method: 'ping', executionId: exec });
    add(false, { sessionId: 's1', side: 'backend', direction: 'in', kind: 'response', method: 'ping', executionId: exec });
    add(false, { sessionId: 's1', side: 'client', direction: 'out', kind: 'response', method: 'ping', executionId: exec });
    // An interceptor server pinging the gateway, and the gateway's answer: the server's, kept.
    add(false, { side: 'interceptor', peer: 'samples', direction: 'in', kind: 'request', method: 'ping' });
    add(false, { side: 'interceptor', peer: 'samples', direction: 'out', kind: 'response', method: 'ping' });
    add(false, { sessionId: 's1', side: 'client', direction: 'in', kind: 'request', method: 'tools/call', executionId: randomUUID() });
    // No method at all: kept by an exclusion and by the health ping rule.
    add(false, { side: 'interceptor', peer: 'down', direction: 'out', kind: 'connect-error', jsonrpcId: undefined });
    for (const { r } of records) recorder.recordMessage!(r);
    await recorder.close();
    const store = await history.open();
    const want = (pred: (r: MessageRecord, health: boolean) => boolean) =>
      records
        .filter((x) => pred(x.r, x.health))
        .reverse()
        .map((x) => x.r.id);
    const check = async (filter: Omit<MessageFilter, 'gateway'>, pred: (r: MessageRecord, health: boolean) => boolean) => {
      const expected = want(pred);
      expect(ids((await store.listMessages({ gateway: 'demo', ...filter }, { limit: 1000 })).items), JSON.stringify(filter)).toEqual(expected);
      // Page by page (pages of 2), and in bounded steps of 3 rows: the same rows in order, each once.
      expect((await allPages(store, { gateway: 'demo', ...filter }, 2)).ids, JSON.stringify(filter)).toEqual(expected);
      expect((await allPages(store, { gateway: 'demo', ...filter }, 2, 3)).ids, JSON.stringify(filter)).toEqual(expected);
    };
    const ids = (items: MessageSummary[]) => items.map((m) => m.id);
    expect(records.filter((x) => x.health)).toHaveLength(7);
    await check({}, () => true);
    await check({ hideHealthPings: true }, (_r, health) => !health);
    await check({ hideHealthPings: true, session: null }, (r, health) => !health && r.sessionId === undefined);
    await check({ hideHealthPings: true, method: 'ping' }, (r, health) => !health && r.method === 'ping');
    await check({ hideHealthPings: true, side: 'interceptor' }, (r, health) => !health && r.side === 'interceptor');
    await check({ method: 'ping' }, (r) => r.method === 'ping');
    await check({ excludeMethods: ['ping'] }, (r) => r.method !== 'ping');
    await check({ excludeMethods: ['ping', 'notifications/progress'], session: 's1' }, (r) => r.sessionId === 's1' && r.method === 'tools/call');
    await check({ excludeMethods: ['notifications/progress'], hideHealthPings: true }, (r, health) => !health && r.method !== 'notifications/progress');
    await check(
      { excludeMethods: ['tools/call'], side: 'client', kind: 'request' },
      (r) => r.side === 'client' && r.kind === 'request' && r.method !== 'tools/call',
    );
  });

  describe('the Messages view reads', () => {
    let store: HistoryStore;
    const T0 = Date.UTC(2025, 5, 1, 12, 0, 0);
    const execution = makeExecution({ gateway: 'demo', sessionId: 'sess-b', startedAt: new Date(T0 + 30_000).toISOString() });
    const records: MessageRecord[] = [];
    const add = (i: number, extra: Partial<MessageRecord>, body: unknown = { jsonrpc: '2.0', method: extra.method, params: { i } }) =>
      records.push(message(T0 + i * 1000, body, { sessionId: undefined, jsonrpcId: undefined, method: undefined, ...extra }));

    beforeAll(async () => {
      // Three hops of a call in session sess-b (linked to a recorded execution), notifications and a ping in
      // sess-a, the gateway's own interceptor discovery outside any session, and another gateway's message.
      add(0, { peer: 'samples', side: 'interceptor', direction: 'out', kind: 'request', method: 'interceptors/list', jsonrpcId: 'disc-1' });
      add(
        1,
        { peer: 'samples', side: 'interceptor', direction: 'in', kind: 'response', method: 'interceptors/list', jsonrpcId: 'disc-1' },
        { jsonrpc: '2.0', id: 'disc-1', result: { interceptors: [] } },
      );
      add(2, { sessionId: 'sess-a', side: 'client', direction: 'in', kind: 'notification', method: 'notifications/initialized' });
      add(3, { sessionId: 'sess-a', side: 'client', direction: 'in', kind: 'request', method: 'ping', jsonrpcId: 7 });
      add(
        4,
        { sessionId: 'sess-b', side: 'client', direction: 'in', kind: 'request', method: 'tools/call', jsonrpcId: 1, executionId: execution.id },
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'Quarterly 100%_done' } } },
      );
      add(5, {
        sessionId: 'sess-b',
        side: 'interceptor',
        peer: 'samples',
        direction: 'out',
        kind: 'request',
        method: 'interceptor/invoke',
        jsonrpcId: 2,
        executionId: execution.id,
      });
      add(6, { sessionId: 'sess-b', side: 'backend', direction: 'out', kind: 'request', method: 'tools/call', jsonrpcId: 1, executionId: execution.id });
      add(
        7,
        { sessionId: 'sess-b', side: 'backend', direction: 'in', kind: 'error', method: 'tools/call', jsonrpcId: 1, executionId: execution.id },
        { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'backend went away' } },
      );
      add(8, { sessionId: 'sess-b', side: 'client', direction: 'out', kind: 'error', method: 'tools/call', jsonrpcId: 1, executionId: execution.id });
      // Linked to an execution the store does not have (an initialize that worked is not recorded as one).
      add(9, { sessionId: 'sess-a', side: 'client', direction: 'out', kind: 'response', method: 'ping', jsonrpcId: 7, executionId: randomUUID() });
      add(10, { gateway: 'other', sessionId: 'sess-a', side: 'client', direction: 'in', kind: 'request', method: 'tools/list', jsonrpcId: 1 });
      const history = await engine.create();
      const recorder = await history.recorder({ batchSize: 4 });
      recorder.recordSession({
        id: 'sess-b',
        gateway: 'demo',
        startedAt: new Date(T0).toISOString(),
        clientInfo: { name: 'claude', version: '1.0' },
        principal: { type: 'user', id: 'ada' },
        transport: 'http',
      });
      recorder.recordSession({
        id: 'sess-a',
        gateway: 'demo',
        startedAt: new Date(T0 + 1000).toISOString(),
        clientInfo: { name: 'inspector' },
        transport: 'stdio',
      });
      recorder.recordExecution(execution);
      for (const r of records) recorder.recordMessage!(r);
      await recorder.close();
      store = await history.open();
    });

    /** The demo gateway's messages matching `pred`, newest first (what a page must hold). */
    const expected = (pred: (r: MessageRecord) => boolean) =>
      records
        .filter((r) => r.gateway === 'demo' && pred(r))
        .reverse()
        .map((r) => r.id);
    const ids = (items: MessageSummary[]) => items.map((m) => m.id);

    it.each<[string, Omit<MessageFilter, 'gateway'>, (r: MessageRecord) => boolean]>([
      ['no filter', {}, () => true],
      ['a session', { session: 'sess-b' }, (r) => r.sessionId === 'sess-b'],
      ["the gateway's own (no session)", { session: null }, (r) => r.sessionId === undefined],
      ['side', { side: 'interceptor' }, (r) => r.side === 'interceptor'],
      ['direction', { direction: 'out' }, (r) => r.direction === 'out'],
      ['kind', { kind: 'error' }, (r) => r.kind === 'error'],
      ['method', { method: 'tools/call' }, (r) => r.method === 'tools/call'],
      ['method in a session', { session: 'sess-a', method: 'ping' }, (r) => r.sessionId === 'sess-a' && r.method === 'ping'],
      ['an execution', { executionId: execution.id }, (r) => r.executionId === execution.id],
      [
        'an execution and a method',
        { executionId: execution.id, method: 'interceptor/invoke' },
        (r) => r.executionId === execution.id && r.method === 'interceptor/invoke',
      ],
      [
        'an execution in a session and a side',
        { executionId: execution.id, session: 'sess-b', side: 'backend' },
        (r) => r.executionId === execution.id && r.side === 'backend',
      ],
      ['text, any case', { search: 'QUARTERLY' }, (r) => JSON.stringify(r.message).includes('Quarterly')],
      ['text with % and _ taken literally', { search: '100%_done' }, (r) => JSON.stringify(r.message).includes('100%_done')],
      ['text that is not there', { search: '100%x' }, () => false],
      ['side and text', { side: 'backend', search: 'went away' }, (r) => r.side === 'backend' && r.kind === 'error'],
      ['an unknown method', { method: 'nothing/here' }, () => false],
    ])('filters: %s', async (_name, filter, pred) => {
      const want = expected(pred);
      expect(ids((await store.listMessages({ gateway: 'demo', ...filter }, { limit: 1000 })).items)).toEqual(want);
      // The same rows page by page, in order, each once.
      expect((await allPages(store, { gateway: 'demo', ...filter }, 2)).ids).toEqual(want);
    });

    it('answers nothing for an unknown gateway, and refuses a cursor it did not hand out', async () => {
      expect(await store.listMessages({ gateway: 'nobody' })).toEqual({ items: [], nextCursor: null });
      expect(await store.listMessageSessions('nobody')).toEqual([]);
      expect(await store.messageMethods('nobody')).toEqual([]);
      await expect(store.listMessages({ gateway: 'demo' }, { cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(QueryError);
    });

    it('summarises each message: hop, kind, ids of the type recorded, size, preview, and the execution only when it is stored', async () => {
      const page = (await store.listMessages({ gateway: 'demo' }, { limit: 1000 })).items;
      const byId = new Map(page.map((m) => [m.id, m]));
      const disc = byId.get(records[0]!.id)!;
      expect(disc).toMatchObject({
        side: 'interceptor',
        direction: 'out',
        peer: 'samples',
        kind: 'request',
        method: 'interceptors/list',
        jsonrpcId: 'disc-1',
        truncated: false,
      });
      expect(disc.sessionId).toBeUndefined();
      expect(disc.at).toBe(new Date(T0).toISOString());
      const call = byId.get(records[4]!.id)!;
      expect(call).toMatchObject({ sessionId: 'sess-b', jsonrpcId: 1, executionId: execution.id, size: JSON.stringify(records[4]!.message).length });
      expect(call.preview).toBe(JSON.stringify(records[4]!.message).slice(0, 160));
      expect(byId.get(records[9]!.id)!.executionId).toBeUndefined();
      // Keys are distinct and in page order (they are the cursors).
      expect(new Set(page.map((m) => m.key)).size).toBe(page.length);
      const detail = (await store.getMessage(records[7]!.id))!;
      expect(detail).toMatchObject({ gateway: 'demo', kind: 'error', body: JSON.stringify(records[7]!.message), executionId: execution.id });
      expect(await store.getMessage(randomUUID())).toBeUndefined();
    });

    it('lists the sessions with messages, most recently active first, with what their session record says', async () => {
      expect(await store.listMessageSessions('demo')).toEqual([
        {
          sessionId: 'sess-a',
          lastAt: new Date(T0 + 9000).toISOString(),
          startedAt: new Date(T0 + 1000).toISOString(),
          clientName: 'inspector',
          transport: 'stdio',
        },
        {
          sessionId: 'sess-b',
          lastAt: new Date(T0 + 8000).toISOString(),
          startedAt: new Date(T0).toISOString(),
          clientName: 'claude 1.0',
          transport: 'http',
          principal: 'ada',
        },
        { sessionId: null, lastAt: new Date(T0 + 1000).toISOString() },
      ]);
      expect(await store.listMessageSessions('other')).toEqual([{ sessionId: 'sess-a', lastAt: new Date(T0 + 10_000).toISOString() }]);
    });

    it("lists a gateway's methods in byte order", async () => {
      expect(await store.messageMethods('demo')).toEqual(['interceptor/invoke', 'interceptors/list', 'notifications/initialized', 'ping', 'tools/call']);
      expect(await store.messageMethods('other')).toEqual(['tools/list']);
    });
  });
});
