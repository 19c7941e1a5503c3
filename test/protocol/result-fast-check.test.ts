// passesResultSchema is a shortcut past zod: it may send a valid result to zod, never let an invalid one
// by. Every result shape the samples, the SDKs and the conformance fixtures send, and every variant of them
// with one field replaced by a value of another kind, must get the same verdict as InterceptorResultSchema
// wherever the shortcut says yes, with the same value.
import { describe, expect, it } from 'vitest';
import { expectShortcutNeverLooser } from './shortcut-check';
import { passesResultSchema } from '../../src/shared/protocol/result-fast-check';
import { InterceptorResultSchema } from '../../src/shared/protocol/schemas';

const base = { interceptor: 'x', phase: 'request' };
const shapes: Record<string, unknown>[] = [
  { ...base, type: 'validation', valid: true },
  { ...base, type: 'validation', valid: false, severity: 'error', messages: [{ message: 'no', severity: 'error', path: '$.a' }] },
  { ...base, type: 'validation', valid: true, severity: 'weird', messages: [], suggestions: [{ path: '$.a', value: 1, extra: true }] },
  { ...base, phase: 'response', type: 'validation', valid: true, durationMs: 1.5, info: { a: 1 }, extra: { kept: true } },
  { ...base, type: 'mutation', modified: true, payload: { a: [1, null] } },
  { ...base, type: 'mutation', modified: false },
  { ...base, type: 'mutation', modified: false, payload: null },
  { ...base, type: 'sink', recorded: true, metrics: { bytes: 3 } },
  { ...base, type: 'sink', recorded: false },
];

const replacements: unknown[] = [
  undefined,
  null,
  0,
  1.5,
  Number.NaN,
  Infinity,
  '',
  'error',
  'request',
  true,
  false,
  [],
  [1],
  {},
  { message: 'm', severity: 'info' },
  [{ message: 'm', severity: 'info' }],
  [{ message: 'm', severity: 'bad' }],
  [{ path: 1 }],
  { a: 'x' },
  { a: Infinity },
];

function variants(): unknown[] {
  const out: unknown[] = [null, [], 'x', 1, {}, Object.create(null)];
  for (const shape of shapes) {
    out.push(shape);
    const keys = new Set([...Object.keys(shape), 'severity', 'messages', 'suggestions', 'metrics', 'info', 'durationMs', 'payload', 'type', 'phase']);
    for (const key of keys) {
      for (const value of replacements) {
        const v: Record<string, unknown> = { ...shape };
        if (value === undefined) delete v[key];
        else v[key] = value;
        out.push(v);
      }
    }
  }
  return out;
}

describe('passesResultSchema', () => {
  it('says yes only where the schema accepts, and the schema then gives back an equal value', () => {
    const { yes, no } = expectShortcutNeverLooser(passesResultSchema, InterceptorResultSchema, variants());
    // Both branches are exercised: the shortcut takes the common shapes, zod sees the rest.
    expect(yes).toBeGreaterThan(50);
    expect(no).toBeGreaterThan(50);
  });

  it('takes every plain shape hosts send', () => {
    for (const shape of shapes) expect(passesResultSchema(shape), JSON.stringify(shape)).toBe(true);
  });
});
