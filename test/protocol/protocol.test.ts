import { describe, expect, it } from 'vitest';
import {
  InterceptorDescriptorSchema,
  InterceptorResultSchema,
  canonicalJson,
  descriptorToWire,
  eventPatternMatches,
  hookMatches,
  hooksCoverEvent,
  resultToWire,
  stripKeys,
} from '../../src/shared/protocol/index';

describe('protocol schemas', () => {
  it('reads legacy enforce as active and never emits it', () => {
    const d = InterceptorDescriptorSchema.parse({ name: 'x', type: 'validation', hooks: [], mode: 'enforce' });
    expect(d.mode).toBe('active');
    expect(descriptorToWire(d)).toEqual({ name: 'x', type: 'validation', hooks: [] });
  });

  it('omits defaults and nulls on the wire but keeps meaningful values', () => {
    const d = InterceptorDescriptorSchema.parse({
      name: 'x',
      type: 'mutation',
      hooks: [{ events: ['tools/call'], phase: 'request' }],
      mode: 'audit',
      failOpen: false,
      priorityHint: 0,
    });
    expect(descriptorToWire(d)).toEqual({ name: 'x', type: 'mutation', hooks: [{ events: ['tools/call'], phase: 'request' }], mode: 'audit' });
  });

  it('keeps the payload of an unmodified mutation and drops empty messages', () => {
    const m = InterceptorResultSchema.parse({ interceptor: 'a', type: 'mutation', phase: 'request', modified: false, payload: { a: 1 } });
    expect(resultToWire(m)).toEqual({ interceptor: 'a', type: 'mutation', phase: 'request', modified: false, payload: { a: 1 } });
    const v = InterceptorResultSchema.parse({ interceptor: 'a', type: 'validation', phase: 'request', valid: true, messages: [] });
    expect(resultToWire(v)).toEqual({ interceptor: 'a', type: 'validation', phase: 'request', valid: true });
  });

  it('rejects a result of an unknown type', () => {
    expect(InterceptorResultSchema.safeParse({ interceptor: 'a', type: 'observability', phase: 'request' }).success).toBe(false);
  });
});

describe('event matching (A14)', () => {
  it('matches exact names, "*", namespace globs and legacy */phase', () => {
    expect(eventPatternMatches('tools/call', 'tools/call', 'request')).toBe(true);
    expect(eventPatternMatches('*', 'resources/read', 'response')).toBe(true);
    expect(eventPatternMatches('tools/*', 'tools/call', 'request')).toBe(true);
    expect(eventPatternMatches('tools/*', 'prompts/get', 'request')).toBe(false);
    expect(eventPatternMatches('*/request', 'tools/call', 'request')).toBe(true);
    expect(eventPatternMatches('*/request', 'tools/call', 'response')).toBe(false);
  });

  it('never matches initialize, ping, completion/complete or notifications, even with "*"', () => {
    for (const e of ['initialize', 'ping', 'completion/complete', 'notifications/progress']) {
      expect(eventPatternMatches('*', e, 'request')).toBe(false);
    }
  });

  it('checks the phase of a hook and covers any phase for list filtering', () => {
    const hook = { events: ['tools/call'], phase: 'response' as const };
    expect(hookMatches(hook, 'tools/call', 'request')).toBe(false);
    expect(hookMatches(hook, 'tools/call', 'response')).toBe(true);
    expect(hooksCoverEvent([hook], 'tools/call')).toBe(true);
    expect(hooksCoverEvent([hook], 'prompts/get')).toBe(false);
  });
});

describe('canonical JSON', () => {
  it('sorts keys by UTF-16 code units, recursively, without whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: 'x' }, B: 0 })).toBe('{"B":0,"a":{"c":"x","d":[{"y":2,"z":1}]},"b":1}');
  });

  it('strips volatile keys at any depth', () => {
    expect(stripKeys({ durationMs: 1, x: [{ info: {}, y: 2 }] }, new Set(['durationMs', 'info']))).toEqual({ x: [{ y: 2 }] });
  });
});
