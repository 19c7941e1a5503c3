// passesInvokeParams is a shortcut past zod: it may send valid params to zod, never let invalid ones by.
// Every params shape the gateway, the SDK invokers and the conformance fixtures send, and every variant of
// them with one field replaced by a value of another kind, must get the same verdict as InvokeParamsSchema
// wherever the shortcut says yes, with the same value.
import { describe, expect, it } from 'vitest';
import { expectShortcutNeverLooser } from './shortcut-check';
import { passesInvokeParams } from '../../src/shared/protocol/invoke-fast-check';
import { InvokeParamsSchema } from '../../src/shared/protocol/schemas';

const base = { name: 'pii-validator', event: 'tools/call', phase: 'request', payload: { name: 'echo', arguments: { message: 'hi' } } };
const context = {
  principal: { type: 'anonymous' },
  traceId: '973cfbfb-a11f-4a5a-831b-239174a43503',
  sessionId: 'c2516075-2847-4b84-9713-1ebbee26873c',
  timestamp: '2026-12-05T23:09:27.624Z',
};
const shapes: Record<string, unknown>[] = [
  base,
  { ...base, context },
  { ...base, context, config: { allow: ['*'] }, timeoutMs: 2500 },
  { ...base, phase: 'response', payload: { content: [{ type: 'text', text: 'x' }], isError: false } },
  { ...base, payload: null, context: { principal: { type: 'user', id: 'u1', claims: { role: 'admin' } }, spanId: 's', extra: 1 } },
  { ...base, payload: 'a string payload', timeoutMs: 0, unknownField: { kept: true } },
  { name: 'x', event: '*', phase: 'request', payload: 0 },
];

const replacements: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  2 ** 60,
  Number.NaN,
  '',
  'request',
  'both',
  true,
  [],
  ['*'],
  {},
  { type: 'user' },
  { type: 'robot' },
  { principal: { type: 'service', id: 7 } },
  { principal: { type: 'user', claims: [] } },
  { traceId: 1 },
  { progressToken: 1 },
  Object.create(null),
];

function variants(): unknown[] {
  const out: unknown[] = [null, [], 'x', 1, {}, Object.create(null)];
  for (const shape of shapes) {
    out.push(shape);
    const keys = new Set([...Object.keys(shape), 'name', 'event', 'phase', 'payload', 'config', 'timeoutMs', 'context', '_meta']);
    for (const key of keys) {
      for (const value of replacements) {
        const v: Record<string, unknown> = { ...shape };
        if (value === undefined) delete v[key];
        else v[key] = value;
        out.push(v);
      }
    }
    // One level down in the context: each of its fields replaced too.
    for (const key of ['principal', 'traceId', 'spanId', 'timestamp', 'sessionId']) {
      for (const value of replacements) {
        const ctx: Record<string, unknown> = { ...context };
        if (value === undefined) delete ctx[key];
        else ctx[key] = value;
        out.push({ ...shape, context: ctx });
      }
    }
  }
  return out;
}

describe('passesInvokeParams', () => {
  it('says yes only where the schema accepts, and the schema then gives back an equal value', () => {
    const { yes, no } = expectShortcutNeverLooser(passesInvokeParams, InvokeParamsSchema, variants());
    // Both branches are exercised: the shortcut takes the common shapes, zod sees the rest.
    expect(yes).toBeGreaterThan(50);
    expect(no).toBeGreaterThan(50);
  });

  it('takes every plain shape invokers send', () => {
    for (const shape of shapes) expect(passesInvokeParams(shape), JSON.stringify(shape)).toBe(true);
  });

  it('leaves params with _meta to the schema', () => {
    expect(passesInvokeParams({ ...base, _meta: { progressToken: 1 } })).toBe(false);
  });
});
