// The dispatcher turns every kind of bad call into an envelope error and never throws.
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/main/api/dispatcher';
import { ApiError } from '../../src/shared/api/envelope';
import { PROCEDURE_NAMES, procedures } from '../../src/shared/api/procedures';
import { silentLogger } from '../../src/main/services/environment';
import { tempDir, testCore } from './helpers';

describe('dispatcher', () => {
  const dispatcher = createDispatcher(
    {
      'gateways.status': ({ id }) => {
        if (id === 'boom') throw new Error('kaboom');
        if (id === 'missing') throw new ApiError('not_found', 'No gateway with id "missing".');
        if (id === 'bad-output') return { id, status: 'exploded' } as never;
        return { id, status: 'running' };
      },
    },
    silentLogger,
  );

  it('returns the value of a valid call', async () => {
    expect(await dispatcher.dispatch('gateways.status', { id: 'demo' })).toEqual({ ok: true, value: { id: 'demo', status: 'running' } });
  });

  it.each([
    ['an unknown procedure', 'nope.nothing', {}, 'unknown_procedure'],
    ['a non-string name', 42, {}, 'unknown_procedure'],
    ['a prototype key', '__proto__', {}, 'unknown_procedure'],
    ['missing input', 'gateways.status', undefined, 'invalid_input'],
    ['a wrong type', 'gateways.status', { id: 7 }, 'invalid_input'],
    ['an invalid id', 'gateways.status', { id: '../etc/passwd' }, 'invalid_input'],
    ['a procedure without handler', 'replay.run', { executionId: 'x' }, 'not_implemented'],
    ['an ApiError', 'gateways.status', { id: 'missing' }, 'not_found'],
    ['an exception', 'gateways.status', { id: 'boom' }, 'internal'],
    ['an off-contract output', 'gateways.status', { id: 'bad-output' }, 'invalid_output'],
  ])('answers %s with an envelope error', async (_what, name, input, code) => {
    const result = await dispatcher.dispatch(name, input);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe(code);
      expect(result.error.message.length).toBeGreaterThan(5);
    }
  });

  it('names the failing field in invalid_input errors', async () => {
    const r = await dispatcher.dispatch('gateways.status', { id: 7 });
    expect(!r.ok && r.error.message).toMatch(/^gateways\.status: id: /);
  });

  it('every procedure has a summary and zod input/output', () => {
    for (const name of PROCEDURE_NAMES) {
      expect(procedures[name].summary.length).toBeGreaterThan(5);
      expect(typeof procedures[name].input.safeParse).toBe('function');
      expect(typeof procedures[name].output.safeParse).toBe('function');
    }
  });

  it('the real core survives garbage on every procedure', async () => {
    const t = tempDir();
    const core = testCore(t.dir);
    try {
      await core.start({ demo: false });
      const garbage: unknown[] = [undefined, null, 0, 'x', [], { id: {} }, { config: 'no' }, { text: 5 }];
      for (const name of PROCEDURE_NAMES) {
        for (const input of garbage) {
          const r = await core.dispatcher.dispatch(name, input);
          expect(typeof r.ok).toBe('boolean');
          if (!r.ok) expect(r.error.code).not.toBe('internal');
        }
      }
    } finally {
      await core.shutdown();
      t.cleanup();
    }
  });
});
