import { describe, expect, it } from 'vitest';
import { ChainRuntime } from '../../src/main/interceptors/chain/index';
import { allow, appendNote, call, crash, desc, hang, ic, memServer, record, stepOf } from './helpers';

describe('per-interceptor timeout', () => {
  it('is sent as params.timeoutMs, enforced by the engine, and routed by failOpen', async () => {
    const closed = memServer('s', [ic(desc('v', 'validation'), hang)]);
    const r = await new ChainRuntime([closed], { overrides: { 's/v': { timeoutMs: 40 } } }).run('tools/call', 'request', call('x'));
    expect(closed.invocations[0]?.timeoutMs).toBe(40);
    expect(r.decision).toBe('block');
    expect(r.trace.status).toBe('validation_failed');
    expect(stepOf(r.trace, 's/v')).toMatchObject({ outcome: 'blocked', timeoutMs: 40, error: { kind: 'timeout' } });
    expect(stepOf(r.trace, 's/v').error?.message).toContain('timed out after 40ms');

    const open = memServer('s', [ic(desc('v', 'validation', { failOpen: true }), hang)]);
    const r2 = await new ChainRuntime([open], { overrides: { 's/v': { timeoutMs: 40 } } }).run('tools/call', 'request', call('x'));
    expect(r2.decision).toBe('allow');
    expect(r2.trace.steps[0]).toMatchObject({ outcome: 'failed-open', error: { kind: 'timeout' } });
  });

  it('a handle that ignores cancellation cannot hold the engine past the deadline', async () => {
    const s = memServer('s', [ic(desc('v', 'validation', { failOpen: true }), () => new Promise(() => undefined))]);
    const r = await new ChainRuntime([s], { overrides: { 's/v': { timeoutMs: 30 } } }).run('tools/call', 'request', call('x'));
    expect(r.decision).toBe('allow');
    expect(r.trace.steps[0]?.error?.kind).toBe('timeout');
  });
});

describe('whole-chain timeout', () => {
  it('a fail-closed interceptor in flight at the deadline blocks with status timeout; later ones are chain-timeout failures', async () => {
    const s = memServer('s', [
      ic(desc('a', 'mutation', { priorityHint: -1 }), appendNote('A')),
      ic(desc('slow', 'mutation'), hang),
      ic(desc('z', 'mutation', { priorityHint: 1, failOpen: true }), appendNote('Z')),
      ic(desc('v', 'validation'), allow),
    ]);
    const r = await new ChainRuntime([s]).run('tools/call', 'request', call('x'), { timeoutMs: 50 });
    expect(r.decision).toBe('block');
    expect(r.trace.status).toBe('timeout');
    expect(r.trace.timeoutMs).toBe(50);
    expect(r.trace.deadlineExceeded).toBe(true);
    expect(r.finalPayload).toEqual(call('x'));
    expect(stepOf(r.trace, 's/slow')).toMatchObject({ outcome: 'blocked', error: { kind: 'timeout' } });
    expect(stepOf(r.trace, 's/slow').error?.message).toContain('Whole-chain deadline of 50ms');
    expect(stepOf(r.trace, 's/z').skipped).toBe('after-block');
    expect(stepOf(r.trace, 's/v').skipped).toBe('after-block');
  });

  it('when every cut-off interceptor is fail-open or audit, the chain allows with committed mutations', async () => {
    const s = memServer('s', [
      ic(desc('a', 'mutation', { priorityHint: -1 }), appendNote('A')),
      ic(desc('slow', 'mutation', { failOpen: true }), hang),
      ic(desc('z', 'mutation', { priorityHint: 1, mode: 'audit' }), appendNote('Z')),
      ic(desc('v', 'validation', { failOpen: true }), allow),
      ic(desc('k', 'sink'), record),
    ]);
    const r = await new ChainRuntime([s]).run('tools/call', 'request', call('x'), { timeoutMs: 50 });
    expect(r.decision).toBe('allow');
    expect(r.trace.status).toBe('success');
    expect(r.trace.deadlineExceeded).toBe(true);
    expect(r.finalPayload).toEqual(call('xA'));
    expect(stepOf(r.trace, 's/slow')).toMatchObject({ outcome: 'failed-open', error: { kind: 'timeout' } });
    expect(stepOf(r.trace, 's/z')).toMatchObject({ skipped: 'chain-timeout', outcome: 'failed-open' });
    expect(stepOf(r.trace, 's/v')).toMatchObject({ skipped: 'chain-timeout', outcome: 'failed-open' });
    expect(stepOf(r.trace, 's/k')).toMatchObject({ skipped: 'chain-timeout', outcome: 'not-recorded' });
    expect(s.invocations.map((i) => i.name)).toEqual(['a', 'slow']);
  });

  it('a not-yet-invoked fail-closed interceptor blocks with status timeout', async () => {
    const s = memServer('s', [ic(desc('slow', 'mutation', { failOpen: true }), hang), ic(desc('v', 'validation'), allow)]);
    const r = await new ChainRuntime([s]).run('tools/call', 'request', call('x'), { timeoutMs: 40 });
    expect(r.decision).toBe('block');
    expect(r.trace.status).toBe('timeout');
    expect(r.trace.blockedBy?.interceptor).toBe('v');
    expect(stepOf(r.trace, 's/v')).toMatchObject({ skipped: 'chain-timeout', outcome: 'blocked' });
  });

  it('the deadline also aborts parallel validators in flight', async () => {
    const s = memServer('s', [ic(desc('fast', 'validation'), allow), ic(desc('slow', 'validation'), hang)]);
    const t0 = performance.now();
    const r = await new ChainRuntime([s]).run('tools/call', 'request', call('x'), { timeoutMs: 40 });
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(r.trace.status).toBe('timeout');
    expect(stepOf(r.trace, 's/fast').outcome).toBe('allowed');
    expect(stepOf(r.trace, 's/slow')).toMatchObject({ outcome: 'blocked', error: { kind: 'timeout' } });
  });
});

describe('sinks (A4)', () => {
  it('run only after passing validations, in parallel, and a failure or timeout is recorded:false', async () => {
    const s = memServer('s', [
      ic(desc('ok', 'sink'), () => ({ recorded: true, metrics: { bytes: 3 } })),
      ic(desc('broken', 'sink'), crash),
      ic(desc('stuck', 'sink'), hang),
      ic(desc('v', 'validation'), allow),
    ]);
    const r = await new ChainRuntime([s], { overrides: { 's/stuck': { timeoutMs: 30 } } }).run('tools/call', 'request', call('x'));
    expect(r.decision).toBe('allow');
    expect(stepOf(r.trace, 's/ok')).toMatchObject({ outcome: 'recorded', result: { recorded: true, metrics: { bytes: 3 } } });
    expect(stepOf(r.trace, 's/broken')).toMatchObject({
      outcome: 'not-recorded',
      result: { type: 'sink', interceptor: 'broken', phase: 'request', recorded: false },
      error: { kind: 'crash' },
    });
    expect(stepOf(r.trace, 's/stuck')).toMatchObject({ outcome: 'not-recorded', error: { kind: 'timeout' } });
  });

  it('never run when validations block, and never block or mutate', async () => {
    const blocked = memServer('s', [ic(desc('k', 'sink'), record), ic(desc('v', 'validation'), () => ({ valid: false }))]);
    const r = await new ChainRuntime([blocked]).run('tools/call', 'request', call('x'));
    expect(r.decision).toBe('block');
    expect(stepOf(r.trace, 's/k').skipped).toBe('validation-failed');
    expect(blocked.invocations.map((i) => i.name)).toEqual(['v']);

    const sneaky = memServer('s', [ic(desc('k', 'sink'), () => ({ recorded: true, payload: { evil: true } }))]);
    const r2 = await new ChainRuntime([sneaky]).run('tools/call', 'request', call('x'));
    expect(r2.finalPayload).toEqual(call('x'));
  });

  it('request sinks see the post-mutation payload, response sinks the pre-mutation payload', async () => {
    const seen: Record<string, unknown> = {};
    const s = memServer('s', [
      ic(desc('m', 'mutation'), appendNote('+')),
      ic(desc('k', 'sink'), (c) => {
        seen[c.phase] = c.payload;
        return { recorded: true };
      }),
    ]);
    const rt = new ChainRuntime([s]);
    await rt.run('tools/call', 'request', call('q'));
    await rt.run('tools/call', 'response', call('r'));
    expect(seen).toEqual({ request: call('q+'), response: call('r') });
  });
});
