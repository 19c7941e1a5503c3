// RunOptions.detachSinks ([path-speed]): run() returns with the decision while sinks are still in flight, and
// ChainResult.sinks puts their steps into the trace where the pass order puts them once they end. The whole-chain
// deadline still bounds them; sinks skipped at once (after a block) leave nothing to wait for.
import { describe, expect, it } from 'vitest';
import { ChainRuntime } from '../../src/main/interceptors/chain/index';
import type { MemoryHandler } from '../../src/main/interceptors/chain/index';
import { allow, appendNote, call, deny, desc, hang, ic, memServer, stepOf } from './helpers';

/** A sink that answers only when released, and says whether it has been invoked. */
function heldSink(): { handler: MemoryHandler; invoked: () => boolean; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let invoked = false;
  return {
    handler: async () => {
      invoked = true;
      await gate;
      return { recorded: true };
    },
    invoked: () => invoked,
    release,
  };
}

/** A response-phase run (validation, held sink, mutation on call('x')) returned while its sink is still in flight. */
async function responseRunWithHeldSink() {
  const sink = heldSink();
  const s = memServer('s', [
    ic(desc('v', 'validation', { phases: ['response'] }), allow),
    ic(desc('k', 'sink', { phases: ['response'] }), sink.handler),
    ic(desc('m', 'mutation', { phases: ['response'] }), appendNote('M')),
  ]);
  const r = await new ChainRuntime([s]).run('tools/call', 'response', call('x'), { detachSinks: true });
  return { sink, r };
}

describe('detached sinks', () => {
  it('returns the decision before a request-phase sink answers; its step joins the trace at the end of the pass order', async () => {
    const sink = heldSink();
    const s = memServer('s', [ic(desc('m', 'mutation'), appendNote('M')), ic(desc('v', 'validation'), allow), ic(desc('k', 'sink'), sink.handler)]);
    const r = await new ChainRuntime([s]).run('tools/call', 'request', call('x'), { detachSinks: true });
    expect(r.decision).toBe('allow');
    expect(r.finalPayload).toEqual(call('xM'));
    expect(sink.invoked()).toBe(true);
    expect(r.trace.steps.map((st) => st.id)).toEqual(['s/m', 's/v']);
    expect(r.sinks).toBeDefined();
    sink.release();
    await r.sinks!.done;
    expect(r.trace.steps.map((st) => st.id)).toEqual(['s/m', 's/v', 's/k']);
    // The sink saw the payload of its point: after the mutation.
    expect(stepOf(r.trace, 's/k')).toMatchObject({ outcome: 'recorded', input: call('xM') });
  });

  it('in the response phase a sink sees the payload before the mutations, and its step stays between validations and mutations', async () => {
    const { sink, r } = await responseRunWithHeldSink();
    expect(r.finalPayload).toEqual(call('xM'));
    expect(r.trace.steps.map((st) => st.id)).toEqual(['s/v', 's/m']);
    sink.release();
    await r.sinks!.done;
    expect(r.trace.steps.map((st) => st.id)).toEqual(['s/v', 's/k', 's/m']);
    expect(stepOf(r.trace, 's/k').input).toEqual(call('x'));
  });

  it('sinks.cutOff gives up on a sink still running: its step joins the trace as not recorded, and a late answer changes nothing', async () => {
    const { sink, r } = await responseRunWithHeldSink();
    r.sinks!.cutOff('gave up waiting');
    await r.sinks!.done;
    expect(r.trace.steps.map((st) => st.id)).toEqual(['s/v', 's/k', 's/m']);
    expect(stepOf(r.trace, 's/k')).toMatchObject({
      outcome: 'not-recorded',
      input: call('x'),
      result: { type: 'sink', interceptor: 'k', phase: 'response', recorded: false },
      error: { kind: 'timeout', message: 'gave up waiting' },
    });
    sink.release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(r.trace.steps.map((st) => st.id)).toEqual(['s/v', 's/k', 's/m']);
    expect(stepOf(r.trace, 's/k').outcome).toBe('not-recorded');
    r.sinks!.cutOff('again'); // once settled, a cut-off is a no-op
    expect(stepOf(r.trace, 's/k').error!.message).toBe('gave up waiting');
  });

  it('the whole-chain deadline still ends a detached sink that hangs (recorded:false)', async () => {
    const s = memServer('s', [ic(desc('v', 'validation'), allow), ic(desc('k', 'sink'), hang)]);
    const r = await new ChainRuntime([s]).run('tools/call', 'request', call('x'), { detachSinks: true, timeoutMs: 60 });
    expect(r.decision).toBe('allow');
    await r.sinks!.done;
    expect(stepOf(r.trace, 's/k')).toMatchObject({ outcome: 'not-recorded', error: { kind: 'timeout' } });
  });

  it('after a block the sinks are skipped at once: nothing is left to wait for', async () => {
    const s = memServer('s', [ic(desc('v', 'validation'), deny), ic(desc('k', 'sink'), () => ({ recorded: true }))]);
    const r = await new ChainRuntime([s]).run('tools/call', 'request', call('x'), { detachSinks: true });
    expect(r.decision).toBe('block');
    expect(r.sinks).toBeUndefined();
    expect(stepOf(r.trace, 's/k').skipped).toBe('validation-failed');
  });

  it('a detached sink is invoked as a background request; awaited sinks, validators and mutators are not', async () => {
    const backgrounds: Record<string, boolean | undefined> = {};
    const seen = (name: string, result: Record<string, unknown>) => (c: { background?: boolean }) => {
      backgrounds[name] = c.background;
      return result;
    };
    const s = memServer('s', [
      ic(desc('m', 'mutation'), seen('m', { modified: false })),
      ic(desc('v', 'validation'), seen('v', { valid: true })),
      ic(desc('k', 'sink'), seen('k', { recorded: true })),
    ]);
    const detached = await new ChainRuntime([s]).run('tools/call', 'request', call('x'), { detachSinks: true });
    await detached.sinks!.done;
    expect(backgrounds).toEqual({ m: undefined, v: undefined, k: true });
    await new ChainRuntime([s]).run('tools/call', 'request', call('x'));
    expect(backgrounds).toEqual({ m: undefined, v: undefined, k: undefined });
  });

  it('without detachSinks (a replay, the Playground) run() waits for the sinks as before', async () => {
    const sink = heldSink();
    const s = memServer('s', [ic(desc('k', 'sink'), sink.handler)]);
    let settled = false;
    const running = new ChainRuntime([s]).run('tools/call', 'request', call('x')).then((r) => {
      settled = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(settled).toBe(false);
    sink.release();
    const r = await running;
    expect(r.sinks).toBeUndefined();
    expect(stepOf(r.trace, 's/k').outcome).toBe('recorded');
  });
});
