// The read side on a real file: filters (gateway, method, target, outcome, interceptor, blocking
// interceptor, time range, free text), keyset pagination and counts, the detail of one execution
// (rebuilt exactly as recorded), sink events, and the aggregates behind the Gateways cards.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../src/shared/trace/execution';
import {
  countByOutcome,
  countExecutions,
  gatewayCounters,
  getExecution,
  getExecutionRecord,
  interceptorLatency,
  listExecutions,
  listSinkEvents,
  openStore,
  QueryError,
  SqliteRecorder,
  timeBuckets,
  type Store,
} from '../../src/main/store';
import { makeExecution, tempDir } from './fixtures';

const T0 = Date.UTC(2025, 5, 1, 12, 0, 0);
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

let store: Store;
let cleanup: () => void;
const recorded: ExecutionRecord[] = [];

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  const path = join(t.dir, 'history.db');
  const recorder = SqliteRecorder.open(path, { writerThread: false, batchSize: 7 });
  recorder.recordSession({ id: 'session-1', gateway: 'alpha', startedAt: at(0), clientInfo: { name: 'claude', version: '1.0' }, principal: { type: 'user', id: 'ada' }, protocolVersion: '2025-06-18', transport: 'stdio' });
  // 60 executions, one a minute: alpha / beta alternate; outcomes cycle; durations 1..60 ms.
  const outcomes = ['allow', 'mutated', 'blocked', 'error'] as const;
  for (let i = 0; i < 60; i++) {
    const rec = makeExecution({
      gateway: i % 2 === 0 ? 'alpha' : 'beta',
      outcome: outcomes[i % 4],
      tool: i % 3 === 0 ? 'search_docs' : 'send_email',
      startedAt: at(i),
      durationMs: i + 1,
      text: i === 42 ? 'the zanzibar invoice is overdue' : `message number ${i}`,
      sinkRecorded: i % 5 !== 0,
    });
    recorded.push(rec);
    recorder.recordExecution(rec);
  }
  await recorder.close();
  store = openStore(path, { create: false });
});

afterAll(() => {
  store.close();
  cleanup();
});

const ids = (items: { id: string }[]) => items.map((i) => i.id);
const expected = (pred: (r: ExecutionRecord) => boolean) => recorded.filter(pred).reverse().map((r) => r.id);

describe('listExecutions', () => {
  it('returns newest first with the summary fields', () => {
    const page = listExecutions(store.db, {}, { limit: 3 });
    expect(ids(page.items)).toEqual(expected(() => true).slice(0, 3));
    const blocked = listExecutions(store.db, { outcome: 'blocked' }, { limit: 1 }).items[0]!;
    expect(blocked).toMatchObject({ gateway: 'alpha', event: 'tools/call', outcome: 'blocked', blockedBy: { server: 'samples', interceptor: 'pii-validator', phase: 'request' } });
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
    ['time range', { since: at(10), until: at(20) }, (r: ExecutionRecord) => r.startedAt >= at(10) && r.startedAt < at(20)],
    ['time range in epoch ms', { since: T0 + 50 * 60_000 }, (r: ExecutionRecord) => r.startedAt >= at(50)],
    ['session', { sessionId: 'session-1' }, () => true],
    ['search: a word', { search: 'zanzibar' }, (r: ExecutionRecord) => r === recorded[42]],
    ['search: words in any order, any case', { search: 'INVOICE Zanzibar' }, (r: ExecutionRecord) => r === recorded[42]],
    ['search: prefix', { search: 'zanzi*' }, (r: ExecutionRecord) => r === recorded[42]],
    ['search: word not present', { search: 'zanzibar nowhere' }, () => false],
    ['search: a redaction marker, as its words', { search: 'EMAIL_REDACTED' }, (r: ExecutionRecord) => r.outcome !== 'blocked'],
    ['search: operators are taken literally', { search: 'NEAR( "unbalanced' }, () => false],
    ['search + filters', { search: 'message', gateway: 'alpha', outcome: 'allow' as const }, (r: ExecutionRecord) => r.gateway === 'alpha' && r.outcome === 'allow' && r !== recorded[42]],
  ])('filters by %s', (_name, filter, pred) => {
    const want = expected(pred);
    const page = listExecutions(store.db, filter, { limit: 100, withTotal: true });
    expect(ids(page.items)).toEqual(want);
    expect(page.total).toBe(want.length);
    expect(countExecutions(store.db, filter)).toBe(want.length);
    expect(countExecutions(store.db, filter, { cap: 3 })).toBe(Math.min(3, want.length));
  });

  it('pages with a keyset cursor: no gaps, no repeats, null at the end', () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = listExecutions(store.db, { gateway: 'alpha' }, { limit: 7, cursor });
      seen.push(...ids(page.items));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(expected((r) => r.gateway === 'alpha'));
    expect(pages).toBe(Math.ceil(30 / 7));
    // Also through the search index.
    const first = listExecutions(store.db, { search: 'message' }, { limit: 50 });
    const rest = listExecutions(store.db, { search: 'message' }, { limit: 50, cursor: first.nextCursor });
    expect([...ids(first.items), ...ids(rest.items)]).toEqual(expected((r) => r !== recorded[42]));
    expect(rest.nextCursor).toBeNull();
  });

  it('rejects bad input with a QueryError that says what to do', () => {
    expect(() => listExecutions(store.db, {}, { cursor: 'abc' })).toThrow(QueryError);
    expect(() => listExecutions(store.db, { since: 'yesterday' })).toThrow(/ISO 8601/);
    expect(() => listExecutions(store.db, { outcome: 'maybe' as never })).toThrow(/allow, blocked, mutated, error/);
  });

  it('counts per outcome', () => {
    expect(countByOutcome(store.db, { gateway: 'alpha' })).toEqual({ allow: 15, mutated: 0, blocked: 15, error: 0 });
  });
});

describe('getExecution', () => {
  it('rebuilds every record exactly as recorded, both traces and all steps included', () => {
    for (const rec of recorded) expect(getExecutionRecord(store.db, rec.id)).toEqual(rec);
  });

  it('adds sink events, the session and replays', () => {
    const detail = getExecution(store.db, recorded[0]!.id)!;
    expect(detail.session).toMatchObject({ id: 'session-1', clientInfo: { name: 'claude' }, principal: { type: 'user', id: 'ada' } });
    expect(detail.sinkEvents.map((e) => [e.phase, e.recorded])).toEqual([['request', false], ['response', true]]);
    expect(detail.replayedBy).toEqual([]);
    expect(getExecution(store.db, 'no-such-id')).toBeUndefined();
  });
});

describe('listSinkEvents', () => {
  it('lists sink events newest first, filtered by interceptor, event, recorded and time', () => {
    const all = listSinkEvents(store.db, {}, { limit: 1000 }).items;
    // Sinks run unless validation blocked: 45 request-phase events, and 30 response-phase ones (allow/mutated).
    expect(all).toHaveLength(75);
    expect(all[0]!.executionId).toBe(recorded[59]!.id);
    expect(all[0]).toMatchObject({ interceptor: 'samples/request-logger', event: 'tools/call', metrics: { payloadBytes: expect.any(Number) } });
    const notRecorded = listSinkEvents(store.db, { recorded: false }, { limit: 1000 }).items;
    expect(notRecorded.map((e) => e.executionId).sort()).toEqual(recorded.filter((r, i) => i % 5 === 0 && r.outcome !== 'blocked').map((r) => r.id).sort());
    expect(listSinkEvents(store.db, { interceptor: 'request-logger', phase: 'response', gateway: 'alpha' }, { limit: 1000 }).items).toHaveLength(15);
    expect(listSinkEvents(store.db, { since: at(30) }, { limit: 1000 }).items.every((e) => e.at >= at(30))).toBe(true);
    const page1 = listSinkEvents(store.db, {}, { limit: 40 });
    const page2 = listSinkEvents(store.db, {}, { limit: 40, cursor: page1.nextCursor });
    expect([...page1.items, ...page2.items]).toEqual(all);
    expect(page2.nextCursor).toBeNull();
  });
});

describe('sink event times', () => {
  it('places a response-phase sink at its own trace start plus its offset, after the request-phase one', async () => {
    const t = tempDir();
    try {
      const path = join(t.dir, 'history.db');
      const recorder = SqliteRecorder.open(path, { writerThread: false });
      const rec = makeExecution({ outcome: 'allow', startedAt: at(0) });
      // The backend answered 40 ms after the request arrived: the response chain started then.
      rec.responseTrace!.startedAt = new Date(T0 + 40).toISOString();
      recorder.recordExecution(rec);
      await recorder.close();
      const s = openStore(path, { readonly: true, create: false });
      try {
        const events = listSinkEvents(s.db, { executionId: rec.id }).items;
        expect(events.map((e) => [e.phase, e.at])).toEqual([
          ['response', new Date(T0 + 40).toISOString()], // startMs 0.1 in its trace, rounded
          ['request', new Date(T0 + 3).toISOString()], // startMs 2.6 in the request trace, rounded
        ]);
      } finally {
        s.close();
      }
    } finally {
      t.cleanup();
    }
  });
});

describe('aggregates', () => {
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };

  it('counts calls, blocked, mutated and errors per gateway, with the median latency', () => {
    const counters = gatewayCounters(store.db);
    const alpha = recorded.filter((r) => r.gateway === 'alpha');
    expect(counters.map((c) => c.gateway)).toEqual(['alpha', 'beta']);
    expect(counters[0]).toMatchObject({ calls: 30, allowed: 15, blocked: 15, mutated: 0, errors: 0, p50Ms: median(alpha.map((r) => r.durationMs)), lastAt: at(58) });
    expect(counters[1]).toMatchObject({ calls: 30, mutated: 15, errors: 15 });
    expect(gatewayCounters(store.db, { gateway: 'beta', since: at(50) })[0]).toMatchObject({ calls: 5 });
  });

  it('gives latency percentiles per interceptor and phase', () => {
    const rows = interceptorLatency(store.db);
    const pii = rows.find((r) => r.interceptor === 'samples/pii-validator')!;
    expect(pii).toMatchObject({ phase: 'request', type: 'validation', invocations: 60, blocked: 15, p50Ms: 0.8, maxMs: 0.8 });
    const loggerReq = rows.find((r) => r.name === 'request-logger' && r.phase === 'request')!;
    expect(loggerReq.invocations).toBe(45); // skipped after a block: not an invocation
  });

  it('buckets calls over time, including empty buckets', () => {
    const buckets = timeBuckets(store.db, { since: at(0), until: at(70), bucketMs: 10 * 60_000 });
    expect(buckets.map((b) => b.calls)).toEqual([10, 10, 10, 10, 10, 10, 0]);
    expect(buckets[0]).toMatchObject({ start: at(0), blocked: 2, mutated: 3, errors: 2, p50Ms: 5.5 });
    expect(buckets[6]!.p50Ms).toBeNull();
    expect(() => timeBuckets(store.db, { since: at(0), until: at(70), bucketMs: 1 })).toThrow(/too many/);
  });
});
