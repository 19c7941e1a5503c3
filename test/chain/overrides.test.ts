import { describe, expect, it } from 'vitest';
import { OverrideWideningError, narrowHooks, orderChain, patternCovers, validateOverrides } from '../../src/main/interceptors/chain/index';
import { desc, discovered } from './helpers';

const declared = [
  { events: ['tools/call', 'resources/*'], phase: 'request' as const },
  { events: ['*'], phase: 'response' as const },
];

describe('override hooks narrowing (A11)', () => {
  it('accepts a narrowing override: subset of events, glob-covered events, wildcard phase', () => {
    expect(narrowHooks('s/x', declared, [{ events: ['resources/read'], phase: 'request' }])).toEqual([{ events: ['resources/read'], phase: 'request' }]);
    expect(
      narrowHooks('s/x', declared, [
        { events: ['tools/call'], phase: 'response' },
        { events: ['resources/*'], phase: 'request' },
      ]),
    ).toHaveLength(2);
    expect(narrowHooks('s/x', declared, [])).toEqual([]);
    expect(narrowHooks('s/x', declared, undefined)).toEqual(declared);
  });

  it('rejects an event not declared for that phase, saying which', () => {
    let err: unknown;
    try {
      narrowHooks('s/x', declared, [{ events: ['prompts/get'], phase: 'request' }]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(OverrideWideningError);
    const w = err as OverrideWideningError;
    expect(w.event).toBe('prompts/get');
    expect(w.phase).toBe('request');
    expect(w.message).toContain("event 'prompts/get' is not declared for phase 'request'");
  });

  it('rejects a phase that is not declared and a wildcard wider than the declaration', () => {
    expect(() => narrowHooks('s/x', [{ events: ['tools/call'], phase: 'request' }], [{ events: ['tools/call'], phase: 'response' }])).toThrow(
      /phase 'response' is not declared/,
    );
    expect(() => narrowHooks('s/x', declared, [{ events: ['*'], phase: 'request' }])).toThrow(OverrideWideningError);
    expect(() => narrowHooks('s/x', declared, [{ events: ['tools/*'], phase: 'request' }])).toThrow(/tools\/\*/);
  });

  it('compares glob patterns conservatively', () => {
    expect(patternCovers('*', 'anything/else', 'request')).toBe(true);
    expect(patternCovers('*/request', 'tools/call', 'request')).toBe(true);
    expect(patternCovers('tools/*', 'tools/call', 'request')).toBe(true);
    expect(patternCovers('tools/*', 'tools/c*', 'request')).toBe(true);
    expect(patternCovers('tools/*', 'tools/**', 'request')).toBe(false);
    expect(patternCovers('tools/call', 'tools/*', 'request')).toBe(false);
  });

  it('makes the ordering function throw on widening (a config error, never silently applied)', () => {
    const items = discovered('s', 0, [desc('v', 'validation', { phases: ['request'] })]);
    expect(() =>
      orderChain({
        event: 'tools/call',
        phase: 'request',
        interceptors: items,
        overrides: { 's/v': { hooks: [{ events: ['tools/call'], phase: 'response' }] } },
      }),
    ).toThrow(OverrideWideningError);
  });
});

describe('validateOverrides', () => {
  const items = discovered('s', 0, [desc('v', 'validation', { events: ['tools/call'], phases: ['request'] })]);

  it('reports widening with the path of the offending event', () => {
    const issues = validateOverrides({ 's/v': { hooks: [{ events: ['tools/call', 'prompts/get'], phase: 'request' }] } }, items);
    expect(issues).toEqual([expect.objectContaining({ key: 's/v', kind: 'widening', severity: 'error', path: 'hooks[0].events[1]' })]);
  });

  it('accepts a valid override, warns about unknown interceptors, rejects bad shapes', () => {
    expect(validateOverrides({ 's/v': { enabled: false, priorityHint: { request: 3 }, mode: 'audit' } }, items)).toEqual([]);
    expect(validateOverrides({ 'other/v': { enabled: false } }, items)).toEqual([
      expect.objectContaining({ kind: 'unknown-interceptor', severity: 'warning' }),
    ]);
    expect(validateOverrides({ 's/v': { timeoutMs: -1 } }, items)[0]).toMatchObject({ key: 's/v', kind: 'invalid', path: 'timeoutMs' });
    expect(validateOverrides({ 's/v': { colour: 'red' } }, items)[0]).toMatchObject({ kind: 'invalid' });
    expect(validateOverrides({ novalidkey: {} }, items)[0]).toMatchObject({ kind: 'invalid' });
  });
});
