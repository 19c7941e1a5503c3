// Compare's "N step(s) differ" counts only steps whose content differs. Issue [desktop-client] item 5:
// an execution blocked at the request against an allowed one said "9 step(s) differ" where 2 did: each
// step of the response phase, which the blocked one never ran, was counted. Timing never counts.
import { describe, expect, it } from 'vitest';
import { compareExecutions, type Comparable } from '../../src/shared/traffic/compare';
import type { ChainTrace, TraceStep } from '../../src/shared/trace/types';

const step = (name: string, outcome: TraceStep['outcome'], more: Partial<TraceStep> = {}): TraceStep => ({
  id: `samples/${name}`,
  server: 'samples',
  name,
  type: 'validation',
  pass: 'validation',
  mode: 'active',
  failOpen: false,
  priority: 0,
  startMs: 1,
  durationMs: 2,
  outcome,
  shadow: false,
  ...more,
});

const trace = (phase: 'request' | 'response', steps: TraceStep[], startedAt = '2026-01-01T00:00:00.000Z'): ChainTrace => ({
  event: 'tools/call',
  phase,
  startedAt,
  durationMs: 5,
  decision: steps.some((s) => s.outcome === 'blocked') ? 'block' : 'allow',
  status: 'success',
  inputPayload: {},
  finalPayload: {},
  modified: false,
  discovery: [],
  steps,
  validationSummary: { errors: 0, warnings: 0, infos: 0 },
});

const requestSteps = (blocked: boolean) => [
  step('email-redactor', 'unchanged', { type: 'mutation', pass: 'mutation' }),
  blocked
    ? step('pii-validator', 'blocked', { result: { valid: false, messages: [{ message: 'Payload may contain SSN', severity: 'error' }] } as never })
    : step('pii-validator', 'allowed'),
  step('tool-allowlist', 'allowed'),
  blocked
    ? step('request-logger', 'skipped', { type: 'sink', pass: 'sink', skipped: 'validation-failed' })
    : step('request-logger', 'recorded', { type: 'sink', pass: 'sink' }),
];
const responseSteps = () => [
  step('cross-boundary-guard', 'allowed'),
  step('request-logger', 'recorded', { type: 'sink', pass: 'sink' }),
  step('email-redactor', 'skipped', { skipped: 'other-phase' }),
  step('pii-validator', 'skipped', { skipped: 'other-phase' }),
];

const blocked: Comparable = {
  outcome: 'blocked',
  blockedBy: { server: 'samples', interceptor: 'pii-validator', phase: 'request', event: 'tools/call', reason: 'SSN', messages: [] },
  requestTrace: trace('request', requestSteps(true)),
};
const allowed: Comparable = {
  outcome: 'allow',
  requestForwarded: { name: 'echo' },
  responseReturned: { content: [] },
  requestTrace: trace('request', requestSteps(false)),
  responseTrace: trace('response', responseSteps()),
};
const changed = (a: Comparable, b: Comparable) =>
  compareExecutions(a, b)
    .steps.filter((s) => s.changed)
    .map((s) => `${s.phase}:${s.id}`);

describe('compareExecutions: which steps differ', () => {
  it('blocked at the request vs allowed: the 2 request steps that differ, not the response phase the blocked one never ran', () => {
    expect(changed(blocked, allowed)).toEqual(['request:samples/pii-validator', 'request:samples/request-logger']);
    expect(changed(allowed, blocked)).toEqual(['request:samples/pii-validator', 'request:samples/request-logger']);
    const c = compareExecutions(blocked, allowed);
    expect(c.outcomeChanged).toBe(true);
    // Still listed for "show all", B only, unchanged.
    expect(c.steps.filter((s) => s.phase === 'response')).toHaveLength(4);
    expect(c.steps.find((s) => s.phase === 'response' && s.id === 'samples/cross-boundary-guard')).toMatchObject({ changed: false, b: { outcome: 'allowed' } });
  });

  it('identical content with other timings (startMs, durationMs, startedAt): nothing differs', () => {
    const retimed: Comparable = {
      ...allowed,
      requestTrace: {
        ...trace(
          'request',
          requestSteps(false).map((s) => ({ ...s, startMs: 40, durationMs: 99.5 })),
          '2026-02-02T10:00:00.000Z',
        ),
        durationMs: 120,
      },
      responseTrace: {
        ...trace(
          'response',
          responseSteps().map((s) => ({ ...s, startMs: 7, durationMs: 0.25 })),
          '2026-02-02T10:00:01.000Z',
        ),
        durationMs: 3,
      },
    };
    expect(changed(allowed, retimed)).toEqual([]);
  });

  it('an interceptor in one chain and not the other, in a phase both ran, still counts', () => {
    const fewer: Comparable = {
      ...allowed,
      responseTrace: trace(
        'response',
        responseSteps().filter((s) => s.name !== 'cross-boundary-guard'),
      ),
    };
    expect(changed(allowed, fewer)).toEqual(['response:samples/cross-boundary-guard']);
  });

  it('a changed verdict message or mutation payload counts', () => {
    const other: Comparable = {
      ...blocked,
      requestTrace: trace(
        'request',
        requestSteps(true).map((s) =>
          s.name === 'pii-validator'
            ? { ...s, result: { valid: false, messages: [{ message: 'Payload may contain a card number', severity: 'error' }] } as never }
            : s.name === 'email-redactor'
              ? { ...s, outcome: 'mutated' as const, result: { modified: true, payload: { x: 1 } } as never }
              : s,
        ),
      ),
    };
    expect(changed(blocked, other)).toEqual(['request:samples/email-redactor', 'request:samples/pii-validator']);
  });
});
