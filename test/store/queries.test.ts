// The read side, on both engines (an SQLite file, a PostgreSQL server) through the store port: filters
// (gateway, host, method, target, outcome, interceptor, blocking interceptor, time range, free text), keyset
// pagination and counts, the detail of one execution (rebuilt exactly as recorded), sink events, and
// the aggregates behind the Gateways cards. One suite: every case runs on each engine.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../src/shared/trace/execution';
import { interceptorLatency, openStore, QueryError, SqliteHistoryWriter, type Store } from '../../src/main/history/sqlite';
import type { HistoryStore } from '../../src/main/history/model/history-store';
import { makeExecution, tempDir } from './fixtures';
import { ENGINES } from './engines';

const T0 = Date.UTC(2025, 5, 1, 12, 0, 0);
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const outcomes = ['allow', 'mutated', 'blocked', 'error'] as const;

/** 60 executions, one a minute: alpha / beta alternate; outcomes cycle; durations 1..60 ms. */
function sixtyExecutions(): ExecutionRecord[] {
  return Array.from({ length: 60 }, (_, i) =>
    makeExecution({
      gateway: i % 2 === 0 ? 'alpha' : 'beta',
      outcome: outcomes[i % 4],
      tool: i % 3 === 0 ? 'search_docs' : 'send_email',
      startedAt: at(i),
      durationMs: i + 1,
      text: i === 42 ? 'the zanzibar invoice is overdue' : `message number ${i}`,
      sinkRecorded: i % 5 !== 0,
    }),
  );
}

const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe.each(ENGINES)('$name store', (engine) => {
  if (engine.skip) {
    it.skip(`skipped: ${engine.skip}`, () => {});
    return;
  }
  let store: HistoryStore;
  const recorded = sixtyExecutions();
  const expected = (pred: (r: ExecutionRecord) => boolean) =>
    recorded
      .filter(pred)
      .reverse()
      .map((r) => r.id);

  beforeAll(async () => {
    const history = await engine.create();
    // Two recording hosts, as a gateway scaled out over two machines: the first 40 from host-a, the rest from host-b.
    const recorder = await history.recorder({ batchSize: 7, host: 'host-a' });
    recorder.recordSession({
      id: 'session-1',
      gateway: 'alpha',
      startedAt: at(0),
      clientInfo: { name: 'claude', version: '1.0' },
      principal: { type: 'user', id: 'ada' },
      protocolVersion: '2025-06-18',
      transport: 'stdio',
    });
    for (const rec of recorded.slice(0, 40)) recorder.recordExecution(rec);
    await recorder.close();
    const second = await history.recorder({ batchSize: 7, host: 'host-b' });
    for (const rec of recorded.slice(40)) second.recordExecution(rec);
    await second.close();
    store = await history.open();
  });

  describe('listExecutions', () => {
    it('returns newest first with the summary fields', async () => {
      const page = await store.listExecutions({}, { limit: 3 });
      expect(ids(page.items)).toEqual(expected(() => true).slice(0, 3));
      const blocked = (await store.listExecutions({ outcome: 'blocked' }, { limit: 1 })).items[0]!;
      expect(blocked).toMatchObject({
        gateway: 'alpha',
        event: 'tools/call',
        outcome: 'blocked',
        blockedBy: { server: 'samples', interceptor: 'pii-validator', phase: 'request' },
      });
    });

    it.each([
      ['gateway', { gateway: 'beta' }, (r: ExecutionRecord) => r.gateway === 'beta'],
      ['method', { event: 'tools/call' }, () => true],
      ['unknown method', { event: 'prompts/get' }, () => false],
      ['target', { target: 'search_docs' }, (r: ExecutionRecord) => r.target === 'search_docs'],
      ['outcome', { outcome: 'mutated' as const }, (r: ExecutionRecord) => r.outcome === 'mutated'],
      ['outcomes', { outcome: ['blocked' as const, 'error' as const] }, (r: ExecutionRecord) => r.outcome === 'blocked' || r.outcome === 'error'],
      ['blocking interceptor', { blockedBy: 'samples/pii-validator' }, (r: ExecutionRecord) => r.outcome === 'blocked'],
      ['interceptor that ran (bare name)', { interceptor: 'request-logger' }, (r: ExecutionRecord) => r.outcome !== 'blocked'],
      ['interceptor that ran (server/name)', { interceptor: 'samples/email-redactor' }, () => true],
      ['unknown interceptor', { interceptor: 'nobody/nothing' }, () => false],
      ['unknown gateway', { gateway: 'gamma' }, () => false],
      // Only a shared history records the host (SQLite: one machine, no host, so nothing matches).
      ['host', { host: 'host-b' }, (r: ExecutionRecord) => engine.name === 'postgres' && recorded.indexOf(r) >= 40],
      [
        'host + gateway',
        { host: 'host-a', gateway: 'beta' },
        (r: ExecutionRecord) => engine.name === 'postgres' && recorded.indexOf(r) < 40 && r.gateway === 'beta',
      ],
      ['unknown host', { host: 'host-z' }, () => false],
      ['time range', { since: at(10), until: at(20) }, (r: ExecutionRecord) => r.startedAt >= at(10) && r.startedAt < at(20)],
      ['time range in epoch ms', { since: T0 + 50 * 60_000 }, (r: ExecutionRecord) => r.startedAt >= at(50)],
      ['session', { sessionId: 'session-1' }, () => true],
      ['search: a word', { search: 'zanzibar' }, (r: ExecutionRecord) => r === recorded[42]],
      ['search: words in any order, any case', { search: 'INVOICE Zanzibar' }, (r: ExecutionRecord) => r === recorded[42]],
      ['search: prefix', { search: 'zanzi*' }, (r: ExecutionRecord) => r === recorded[42]],
      ['search: word not present', { search: 'zanzibar nowhere' }, () => false],
      ['search: a redaction marker, as its words', { search: 'EMAIL_REDACTED' }, (r: ExecutionRecord) => r.outcome !== 'blocked'],
      ['search: part of an e-mail address, as its words', { search: 'alice' }, () => true],
      ['search: operators are taken literally', { search: 'NEAR( "unbalanced' }, () => false],
      [
        'search + filters',
        { search: 'message', gateway: 'alpha', outcome: 'allow' as const },
        (r: ExecutionRecord) => r.gateway === 'alpha' && r.outcome === 'allow' && r !== recorded[42],
      ],
    ])('filters by %s', async (_name, filter, pred) => {
      const want = expected(pred);
      const page = await store.listExecutions(filter, { limit: 100, withTotal: true });
      expect(ids(page.items)).toEqual(want);
      expect(page.total).toBe(want.length);
      expect(await store.countExecutions(filter)).toBe(want.length);
      expect(await store.countExecutions(filter, { cap: 3 })).toBe(Math.min(3, want.length));
    });

    it('pages with a keyset cursor: no gaps, no repeats, null at the end', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await store.listExecutions({ gateway: 'alpha' }, { limit: 7, cursor });
        seen.push(...ids(page.items));
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(seen).toEqual(expected((r) => r.gateway === 'alpha'));
      expect(pages).toBe(Math.ceil(30 / 7));
      // Also through the search index.
      const first = await store.listExecutions({ search: 'message' }, { limit: 50 });
      const rest = await store.listExecutions({ search: 'message' }, { limit: 50, cursor: first.nextCursor });
      expect([...ids(first.items), ...ids(rest.items)]).toEqual(expected((r) => r !== recorded[42]));
      expect(rest.nextCursor).toBeNull();
    });

    it('rejects bad input with a QueryError that says what to do', async () => {
      await expect(store.listExecutions({}, { cursor: 'abc' })).rejects.toThrow(QueryError);
      await expect(store.listExecutions({ since: 'yesterday' })).rejects.toThrow(/ISO 8601/);
      await expect(store.listExecutions({ outcome: 'maybe' as never })).rejects.toThrow(/allow, blocked, mutated, error/);
    });

    it('counts per outcome', async () => {
      expect(await store.countByOutcome({ gateway: 'alpha' })).toEqual({ allow: 15, mutated: 0, blocked: 15, error: 0 });
    });
  });

  describe('getExecution', () => {
    it('rebuilds every record exactly as recorded, both traces and all steps included', async () => {
      for (const rec of recorded) expect(await store.getExecutionRecord(rec.id)).toEqual(rec);
    });

    it('adds sink events, the session and replays', async () => {
      const detail = (await store.getExecution(recorded[0]!.id))!;
      expect(detail.session).toMatchObject({ id: 'session-1', clientInfo: { name: 'claude' }, principal: { type: 'user', id: 'ada' } });
      expect(detail.sinkEvents.map((e) => [e.phase, e.recorded])).toEqual([
        ['request', false],
        ['response', true],
      ]);
      expect(detail.replayedBy).toEqual([]);
      expect(await store.getExecution('no-such-id')).toBeUndefined();
    });
  });

  describe('listSinkEvents', () => {
    it('lists sink events newest first, filtered by interceptor, event, recorded and time', async () => {
      const all = (await store.listSinkEvents({}, { limit: 1000 })).items;
      // Sinks run unless validation blocked: 45 request-phase events, and 30 response-phase ones (allow/mutated).
      expect(all).toHaveLength(75);
      expect(all[0]!.executionId).toBe(recorded[59]!.id);
      expect(all[0]).toMatchObject({ interceptor: 'samples/request-logger', event: 'tools/call', metrics: { payloadBytes: expect.any(Number) } });
      const notRecorded = (await store.listSinkEvents({ recorded: false }, { limit: 1000 })).items;
      expect(notRecorded.map((e) => e.executionId).sort()).toEqual(
        recorded
          .filter((r, i) => i % 5 === 0 && r.outcome !== 'blocked')
          .map((r) => r.id)
          .sort(),
      );
      expect((await store.listSinkEvents({ interceptor: 'request-logger', phase: 'response', gateway: 'alpha' }, { limit: 1000 })).items).toHaveLength(15);
      expect((await store.listSinkEvents({ since: at(30) }, { limit: 1000 })).items.every((e) => e.at >= at(30))).toBe(true);
      const page1 = await store.listSinkEvents({}, { limit: 40 });
      const page2 = await store.listSinkEvents({}, { limit: 40, cursor: page1.nextCursor });
      expect([...page1.items, ...page2.items]).toEqual(all);
      expect(page2.nextCursor).toBeNull();
    });
  });

  describe('sink event times', () => {
    it('places a response-phase sink at its own trace start plus its offset, after the request-phase one', async () => {
      const history = await engine.create();
      const recorder = await history.recorder();
      const rec = makeExecution({ outcome: 'allow', startedAt: at(0) });
      // The backend answered 40 ms after the request arrived: the response chain started then.
      rec.responseTrace!.startedAt = new Date(T0 + 40).toISOString();
      recorder.recordExecution(rec);
      await recorder.close();
      const s = await history.open();
      const events = (await s.listSinkEvents({ executionId: rec.id })).items;
      expect(events.map((e) => [e.phase, e.at])).toEqual([
        ['response', new Date(T0 + 40).toISOString()], // startMs 0.1 in its trace, rounded
        ['request', new Date(T0 + 3).toISOString()], // startMs 2.6 in the request trace, rounded
      ]);
    });
  });

  describe('aggregates', () => {
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
    };

    it('counts calls, blocked, mutated and errors per gateway, with the median latency', async () => {
      const counters = await store.gatewayCounters();
      const alpha = recorded.filter((r) => r.gateway === 'alpha');
      expect(counters.map((c) => c.gateway)).toEqual(['alpha', 'beta']);
      expect(counters[0]).toMatchObject({
        calls: 30,
        allowed: 15,
        blocked: 15,
        mutated: 0,
        errors: 0,
        p50Ms: median(alpha.map((r) => r.durationMs)),
        lastAt: at(58),
      });
      expect(counters[1]).toMatchObject({ calls: 30, mutated: 15, errors: 15 });
      expect((await store.gatewayCounters({ gateway: 'beta', since: at(50) }))[0]).toMatchObject({ calls: 5 });
    });

    it('buckets calls over time, including empty buckets', async () => {
      const buckets = await store.timeBuckets({ since: at(0), until: at(70), bucketMs: 10 * 60_000 });
      expect(buckets.map((b) => b.calls)).toEqual([10, 10, 10, 10, 10, 10, 0]);
      expect(buckets[0]).toMatchObject({ start: at(0), blocked: 2, mutated: 3, errors: 2, p50Ms: 5.5 });
      expect(buckets[6]!.p50Ms).toBeNull();
      await expect(store.timeBuckets({ since: at(0), until: at(70), bucketMs: 1 })).rejects.toThrow(/too many/);
    });

    it('suggests filter values: gateways, hosts, methods, targets, interceptors and sinks', async () => {
      expect(await store.facets()).toEqual({
        gateways: ['alpha', 'beta'],
        hosts: engine.name === 'postgres' ? ['host-a', 'host-b'] : [],
        events: ['tools/call'],
        targets: ['search_docs', 'send_email'],
        interceptors: ['samples/email-redactor', 'samples/pii-validator', 'samples/request-logger'],
        sinks: ['samples/request-logger'],
      });
    });
  });
});

describe('interceptor latency (SQLite: the Gateways page of the desktop console)', () => {
  let sqlite: Store;
  let cleanup: () => void;
  beforeAll(async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const path = join(t.dir, 'history.db');
    const recorder = SqliteHistoryWriter.open(path, { writerThread: false, batchSize: 7 });
    for (const rec of sixtyExecutions()) recorder.recordExecution(rec);
    await recorder.close();
    sqlite = openStore(path, { create: false });
  });
  afterAll(() => {
    sqlite.close();
    cleanup();
  });

  it('gives latency percentiles per interceptor and phase', () => {
    const rows = interceptorLatency(sqlite.db);
    const pii = rows.find((r) => r.interceptor === 'samples/pii-validator')!;
    expect(pii).toMatchObject({ phase: 'request', type: 'validation', invocations: 60, blocked: 15, p50Ms: 0.8, maxMs: 0.8 });
    const loggerReq = rows.find((r) => r.name === 'request-logger' && r.phase === 'request')!;
    expect(loggerReq.invocations).toBe(45); // skipped after a block: not an invocation
  });
});
