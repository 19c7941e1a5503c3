// The client's hand-written envelope and event checks (zod-free, for the renderer's start bundle) accept
// and refuse what the zod schemas of the contract accept and refuse.
import { describe, expect, it } from 'vitest';
import { ApiResultSchema } from '../../src/shared/api/envelope';
import { ApiEventSchema } from '../../src/shared/api/events';
import { isApiEvent, isApiResult } from '../../src/shared/api/guards';

const results: unknown[] = [
  { ok: true, value: { items: [] } },
  { ok: true, value: null },
  { ok: true },
  { ok: false, error: { code: 'not_found', message: 'no such execution' } },
  { ok: false, error: { code: 'teapot', message: 'x' } },
  { ok: false, error: { code: 'internal' } },
  { ok: false },
  { ok: 'yes', value: 1 },
  null,
  'ok',
  [],
];

const events: unknown[] = [
  { type: 'gateway.status', id: 'demo', status: 'running' },
  { type: 'gateway.status', id: 'demo', status: 'failed', error: 'port in use' },
  { type: 'gateway.status', id: 'demo', status: 'running', error: 42 },
  { type: 'executions.new', gateway: 'demo', count: 3 },
  { type: 'executions.new', gateway: 'demo' },
  { type: 'tables.changed', tables: ['executions', 'steps'] },
  { type: 'tables.changed', tables: [] },
  { type: 'gateway.reloaded', id: 'demo', at: '2026-12-02T15:00:00.000Z', restarted: false },
  { type: 'gateway.reloaded', id: 'demo', at: '2026-12-02T15:00:00.000Z' },
  { type: 'replay.progress', jobId: 'j1', state: 'running', done: 1, total: 4 },
  { type: 'replay.progress', jobId: 'j1', state: 'running', done: '1', total: 4 },
  { type: 'client.requests', sessionId: 's1', pending: 0 },
  { type: 'client.requests', sessionId: 's1' },
  { type: 'client.authorizations', waiting: 1 },
  { type: 'client.authorizations', waiting: 'one' },
  { type: 'pauses.changed', gateway: 'demo', opened: { id: 'p1', method: 'tools/call', at: 'request-before-chain' } },
  { type: 'pauses.changed', gateway: 'demo', resolved: { id: 'p1', decision: 'continue', by: 'you' } },
  { type: 'pauses.changed', opened: { id: 'p1', method: 'tools/call', at: 'request-before-chain' } },
  { type: 'toString' },
  { type: 'unknown.event' },
  { tables: ['executions'] },
  null,
  42,
];

describe('API guards (zod-free client checks)', () => {
  it.each(results.map((r) => [JSON.stringify(r), r]))('envelope %s: as the schema', (_, raw) => {
    expect(isApiResult(raw)).toBe(ApiResultSchema.safeParse(raw).success);
  });
  it.each(events.map((e) => [JSON.stringify(e), e]))('event %s: as the schema', (_, raw) => {
    expect(isApiEvent(raw)).toBe(ApiEventSchema.safeParse(raw).success);
  });
});
