// The strict schemas refuse what the loose ones let through: an execution detail whose trace has a step
// without its outcome, a trace without its phase, a pause at no known point. Through the dispatcher such a
// handler value is answered with invalid_output, never sent on to a screen that would trip over it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDispatcher } from '../../src/main/api/dispatcher';
import { silentLogger } from '../../src/main/services/environment';
import { ExecutionDetailSchema } from '../../src/shared/api/models-execution';
import { ChainTraceSchema } from '../../src/shared/api/models-trace';
import type { ExecutionDetail } from '../../src/shared/api/models-execution';

/** What history.detail's output schema was before: three keys checked, anything else let through. */
const OldDetailSchema = z.looseObject({ id: z.string(), gateway: z.string(), event: z.string() });

const step = {
  id: 'samples/pii-validator',
  server: 'samples',
  name: 'pii-validator',
  type: 'validation',
  pass: 'validation',
  mode: 'active',
  failOpen: false,
  priority: 0,
  input: { name: 'echo' },
  result: { interceptor: 'pii-validator', phase: 'request', type: 'validation', valid: true, extra: 'kept' },
  startMs: 0,
  durationMs: 1,
  outcome: 'allowed',
  shadow: false,
};
const trace = {
  event: 'tools/call',
  phase: 'request',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  decision: 'allow',
  status: 'success',
  inputPayload: { name: 'echo' },
  finalPayload: { name: 'echo' },
  modified: false,
  discovery: [],
  steps: [step],
  validationSummary: { errors: 0, warnings: 0, infos: 0 },
};
const good: ExecutionDetail = {
  id: 'e1',
  gateway: 'g',
  event: 'tools/call',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 2,
  outcome: 'allow',
  requestTrace: trace as ExecutionDetail['requestTrace'],
  sinkEvents: [],
  replayedBy: [],
};

const withoutOutcome = { ...good, requestTrace: { ...trace, steps: [{ ...step, outcome: undefined }] } };
const withoutPhase = { ...good, requestTrace: { ...trace, phase: undefined } };
const badPause = {
  ...good,
  pauses: [{ id: 'p', at: 'somewhere', breakpoint: 'b', pausedAt: 'x', resolvedAt: 'y', waitedMs: 1, decision: 'continue', by: 'you' }],
};

describe('strict execution schemas', () => {
  it('accept a well-formed detail, keeping an interceptor result open (its extra key stays)', () => {
    const parsed = ExecutionDetailSchema.parse(good);
    expect(parsed.requestTrace?.steps[0]?.result).toMatchObject({ extra: 'kept' });
  });

  it('refuse what the old loose schema accepted', () => {
    for (const [what, bad, path] of [
      ['a step without outcome', withoutOutcome, 'requestTrace.steps.0.outcome'],
      ['a trace without phase', withoutPhase, 'requestTrace.phase'],
      ['a pause at an unknown point', badPause, 'pauses.0.at'],
    ] as const) {
      expect(OldDetailSchema.safeParse(bad).success, what).toBe(true);
      const r = ExecutionDetailSchema.safeParse(bad);
      expect(r.success, what).toBe(false);
      expect(r.error?.issues.map((i) => i.path.join('.'))).toContain(path);
    }
    expect(ChainTraceSchema.safeParse({ ...trace, steps: [{ ...step, mode: 'enforce' }] }).success).toBe(false);
  });

  it('make the dispatcher answer invalid_output for a handler that returns a malformed detail', async () => {
    const d = createDispatcher({ 'history.detail': () => withoutOutcome as unknown as ExecutionDetail, 'replay.run': () => good }, silentLogger);
    const bad = await d.dispatch('history.detail', { executionId: 'e1' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatchObject({ code: 'invalid_output', message: expect.stringContaining('requestTrace.steps.0.outcome') });
    const ok = await d.dispatch('replay.run', { executionId: 'e1', mode: 'chain-only' });
    expect(ok).toMatchObject({ ok: true, value: { id: 'e1' } });
  });
});
