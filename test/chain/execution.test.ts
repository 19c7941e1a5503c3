import { describe, expect, it } from 'vitest';
import { ChainCancelledError, ChainRuntime, FailureInjector } from '../../src/main/interceptors/chain/index';
import type { MemoryHandler } from '../../src/main/interceptors/chain/index';
import { allow, appendNote, call, crash, deny, desc, hang, ic, memServer, stepOf } from './helpers';

describe('execution model (A2)', () => {
  it('request phase: mutations in order, then validations on the mutated payload, then sinks', async () => {
    const seen: string[] = [];
    const log =
      (label: string, h: MemoryHandler): MemoryHandler =>
      (c) => {
        seen.push(`${label}:${(c.payload as { arguments: { note: string } }).arguments.note}`);
        return h(c);
      };
    const s = memServer('s', [
      ic(
        desc('sink', 'sink'),
        log('sink', () => ({ recorded: true })),
      ),
      ic(desc('val', 'validation'), log('val', allow)),
      ic(desc('b', 'mutation'), log('b', appendNote('B'))),
      ic(desc('a', 'mutation', { priorityHint: -1 }), log('a', appendNote('A'))),
    ]);
    const r = await new ChainRuntime([s]).run('tools/call', 'request', call('x'));
    expect(r.decision).toBe('allow');
    expect(r.finalPayload).toEqual(call('xAB'));
    expect(seen).toEqual(['a:x', 'b:xA', 'val:xAB', 'sink:xAB']);
    expect(r.trace.steps.map((st) => `${st.id}:${st.outcome}`)).toEqual(['s/a:mutated', 's/b:mutated', 's/val:allowed', 's/sink:recorded']);
    expect(r.trace.modified).toBe(true);
    expect(r.trace.status).toBe('success');
    expect(JSON.parse(JSON.stringify(r.trace))).toEqual(r.trace);
  });

  it('response phase: validations and sinks see the pre-mutation payload, mutations run last', async () => {
    const seen: string[] = [];
    const s = memServer('s', [
      ic(desc('m', 'mutation'), (c) => {
        seen.push('m');
        return appendNote('!')(c);
      }),
      ic(desc('v', 'validation'), (c) => {
        seen.push(`v:${JSON.stringify(c.payload)}`);
        return { valid: true };
      }),
      ic(desc('k', 'sink'), (c) => {
        seen.push(`k:${JSON.stringify(c.payload)}`);
        return { recorded: true };
      }),
    ]);
    const r = await new ChainRuntime([s]).run('tools/call', 'response', call('r'));
    expect(seen).toEqual([`v:${JSON.stringify(call('r'))}`, `k:${JSON.stringify(call('r'))}`, 'm']);
    expect(r.finalPayload).toEqual(call('r!'));
  });

  it('audit mutation is computed but shadowed: the next mutator sees the unchanged payload', async () => {
    const seen: unknown[] = [];
    const s = memServer('s', [
      ic(desc('a-audit', 'mutation', { mode: 'audit' }), appendNote('SHADOW')),
      ic(desc('b-active', 'mutation'), (c) => {
        seen.push(c.payload);
        return { modified: false, payload: c.payload };
      }),
    ]);
    const r = await new ChainRuntime([s]).run('tools/call', 'request', call('hi'));
    expect(seen).toEqual([call('hi')]);
    expect(r.finalPayload).toEqual(call('hi'));
    const shadow = stepOf(r.trace, 's/a-audit');
    expect(shadow).toMatchObject({ outcome: 'shadow', shadow: true });
    expect((shadow.result as { payload: unknown }).payload).toEqual(call('hiSHADOW'));
    expect(r.trace.modified).toBe(false);
  });

  it('an audit validator never blocks, even with valid:false severity error or a crash', async () => {
    const s = memServer('s', [ic(desc('deny', 'validation', { mode: 'audit' }), deny), ic(desc('boom', 'validation', { mode: 'audit' }), crash)]);
    const r = await new ChainRuntime([s]).run('tools/call', 'request', call('x'));
    expect(r.decision).toBe('allow');
    expect(stepOf(r.trace, 's/deny')).toMatchObject({ outcome: 'shadow', shadow: true });
    expect(stepOf(r.trace, 's/boom')).toMatchObject({ outcome: 'failed-open', error: { kind: 'crash' } });
  });

  it('routes invocation failures by failOpen, and failOpen never turns valid:false into allow', async () => {
    const open = await new ChainRuntime([memServer('s', [ic(desc('v', 'validation', { failOpen: true }), crash)])]).run('tools/call', 'request', call('x'));
    expect(open.decision).toBe('allow');
    expect(open.trace.steps[0]).toMatchObject({ outcome: 'failed-open', error: { kind: 'crash' } });

    const closed = await new ChainRuntime([memServer('s', [ic(desc('v', 'validation'), crash)])]).run('tools/call', 'request', call('x'));
    expect(closed.decision).toBe('block');
    expect(closed.trace.status).toBe('validation_failed');
    expect(closed.trace.blockedBy).toMatchObject({ server: 's', interceptor: 'v', phase: 'request', event: 'tools/call' });
    expect(closed.trace.blockedBy?.reason).toContain('fail-closed');

    const denyOpen = await new ChainRuntime([memServer('s', [ic(desc('v', 'validation', { failOpen: true }), deny)])]).run('tools/call', 'request', call('x'));
    expect(denyOpen.decision).toBe('block');
    expect(denyOpen.trace.blockedBy?.messages).toEqual(['denied by policy']);
  });

  it('A3: missing or unknown severity blocks as error; warn and info do not', async () => {
    const run = (result: object) => new ChainRuntime([memServer('s', [ic(desc('v', 'validation'), () => result)])]).run('tools/call', 'request', call('x'));
    expect((await run({ valid: false })).decision).toBe('block');
    expect((await run({ valid: false, severity: 'critical' })).trace.blockedBy?.reason).toContain("unknown severity 'critical'");
    const warn = await run({ valid: false, severity: 'warn', messages: [{ message: 'careful', severity: 'warn' }] });
    expect(warn.decision).toBe('allow');
    expect(warn.trace.steps[0]?.outcome).toBe('warned');
    expect(warn.trace.validationSummary).toEqual({ errors: 0, warnings: 1, infos: 0 });
    expect((await run({ valid: false, severity: 'info' })).decision).toBe('allow');
  });

  it('malformed results are invocation failures routed by failOpen', async () => {
    const bad: MemoryHandler = (c) => ({ modified: false, payload: { ...(c.payload as object), sneaky: true } });
    const closed = await new ChainRuntime([memServer('s', [ic(desc('m', 'mutation'), bad)])]).run('tools/call', 'request', call('x'));
    expect(closed.decision).toBe('block');
    expect(closed.trace.status).toBe('mutation_failed');
    expect(closed.trace.steps[0]?.error).toMatchObject({ kind: 'malformed' });
    const open = await new ChainRuntime([memServer('s', [ic(desc('m', 'mutation', { failOpen: true }), bad)])]).run('tools/call', 'request', call('x'));
    expect(open.decision).toBe('allow');
    expect(open.finalPayload).toEqual(call('x'));
    const wrongType = await new ChainRuntime([memServer('s', [ic(desc('v', 'validation'), () => ({ type: 'sink', recorded: true }))])]).run(
      'tools/call',
      'request',
      call('x'),
    );
    expect(wrongType.decision).toBe('block');
    expect(wrongType.trace.steps[0]?.error?.message).toContain("result type 'sink'");
  });

  it('a fail-closed mutation failure blocks with mutation_failed and discards tentative changes (S4 atomicity)', async () => {
    const s = memServer('s', [
      ic(desc('a', 'mutation', { priorityHint: -1 }), appendNote('A')),
      ic(desc('b', 'mutation'), crash),
      ic(desc('c', 'mutation', { priorityHint: 1 }), appendNote('C')),
      ic(desc('v', 'validation'), allow),
      ic(desc('k', 'sink'), () => ({ recorded: true })),
    ]);
    const r = await new ChainRuntime([s]).run('tools/call', 'request', call('x'));
    expect(r.decision).toBe('block');
    expect(r.trace.status).toBe('mutation_failed');
    expect(r.finalPayload).toEqual(call('x'));
    expect(r.trace.modified).toBe(false);
    expect(r.trace.steps.map((st) => [st.id, st.outcome, st.skipped])).toEqual([
      ['s/a', 'mutated', undefined],
      ['s/b', 'blocked', undefined],
      ['s/c', 'skipped', 'after-block'],
      ['s/v', 'skipped', 'after-block'],
      ['s/k', 'skipped', 'after-block'],
    ]);
    expect(s.invocations.map((i) => i.name)).toEqual(['a', 'b']);
  });

  it('with a fail-open mutation failure earlier changes persist', async () => {
    const s = memServer('s', [ic(desc('a', 'mutation', { priorityHint: -1 }), appendNote('A')), ic(desc('b', 'mutation', { failOpen: true }), crash)]);
    const r = await new ChainRuntime([s]).run('tools/call', 'request', call('x'));
    expect(r.decision).toBe('allow');
    expect(r.finalPayload).toEqual(call('xA'));
  });

  it('response phase: a blocking validation skips sinks (validation-failed) and mutations (after-block)', async () => {
    const s = memServer('s', [
      ic(desc('v', 'validation'), deny),
      ic(desc('k', 'sink'), () => ({ recorded: true })),
      ic(desc('m', 'mutation'), appendNote('!')),
    ]);
    const r = await new ChainRuntime([s]).run('tools/call', 'response', call('x'));
    expect(r.trace.steps.map((st) => [st.id, st.skipped ?? st.outcome])).toEqual([
      ['s/v', 'blocked'],
      ['s/k', 'validation-failed'],
      ['s/m', 'after-block'],
    ]);
  });

  it('forwards per-interceptor config and the context (timestamp filled in)', async () => {
    const s = memServer('s', [ic(desc('v', 'validation'), allow)]);
    const rt = new ChainRuntime([s], { overrides: { 's/v': { config: { allow: ['echo'] } } } });
    const context = { principal: { type: 'user' as const, id: 'alice' }, traceId: 't-1', sessionId: 'sess-9' };
    await rt.run('tools/call', 'request', call('x'), { context });
    await rt.run('tools/call', 'request', call('y'), { context });
    expect(s.invocations).toHaveLength(2);
    for (const inv of s.invocations) {
      expect(inv.config).toEqual({ allow: ['echo'] });
      expect(inv.context).toMatchObject(context);
      expect(typeof inv.context?.timestamp).toBe('string');
    }
  });

  it('validations really run in parallel and the decision does not depend on completion order', async () => {
    let started = 0;
    let release!: () => void;
    const allStarted = new Promise<void>((r) => (release = r));
    // Each validator waits until all three have been invoked: only concurrent invocation completes.
    const barrier =
      (result: object, extraDelay: number): MemoryHandler =>
      async () => {
        if (++started === 3) release();
        await allStarted;
        await new Promise((r) => setTimeout(r, extraDelay));
        return result;
      };
    const build = (delays: number[]) =>
      memServer('s', [
        ic(desc('a', 'validation'), barrier({ valid: true }, delays[0]!)),
        ic(desc('b', 'validation'), barrier({ valid: false, severity: 'error', messages: [{ message: 'b says no', severity: 'error' }] }, delays[1]!)),
        ic(desc('c', 'validation'), barrier({ valid: false, messages: [{ message: 'c says no', severity: 'error' }] }, delays[2]!)),
      ]);
    const first = await new ChainRuntime([build([0, 30, 1])]).run('tools/call', 'request', call('x'));
    started = 0;
    const second = await new ChainRuntime([build([30, 1, 0])]).run('tools/call', 'request', call('x'));
    for (const r of [first, second]) {
      expect(r.decision).toBe('block');
      expect(r.trace.blockedBy?.interceptor).toBe('b');
      expect(r.trace.steps.map((st) => `${st.id}:${st.outcome}`)).toEqual(['s/a:allowed', 's/b:blocked', 's/c:blocked']);
    }
  });

  it('an AbortSignal cancels everything in flight and rejects the run', async () => {
    const controller = new AbortController();
    // Aborted once the validation is running (after the mutation pass), not after a guessed delay.
    const hangThenAbort: MemoryHandler = (c) => {
      setImmediate(() => controller.abort());
      return hang(c);
    };
    const s = memServer('s', [ic(desc('v', 'validation'), hangThenAbort), ic(desc('m', 'mutation'), appendNote('!'))]);
    const running = new ChainRuntime([s]).run('tools/call', 'request', call('x'), { signal: controller.signal });
    await expect(running).rejects.toBeInstanceOf(ChainCancelledError);
  });

  it('failure simulation forces a timeout or crash, marked simulated, routed by failOpen', async () => {
    const s = memServer('s', [ic(desc('v', 'validation'), allow), ic(desc('w', 'validation', { failOpen: true }), allow)]);
    const rt = new ChainRuntime([s]);
    const r = await rt.run('tools/call', 'request', call('x'), { simulate: ({ name }) => (name === 'v' ? 'timeout' : 'crash') });
    expect(r.decision).toBe('block');
    expect(stepOf(r.trace, 's/v')).toMatchObject({ simulated: true, outcome: 'blocked', error: { kind: 'timeout' } });
    expect(stepOf(r.trace, 's/w')).toMatchObject({ simulated: true, outcome: 'failed-open', error: { kind: 'crash' } });
    expect(s.invocations).toHaveLength(0);
    expect((await rt.run('tools/call', 'request', call('x'))).decision).toBe('allow');
  });

  it('lists every considered interceptor in the trace, including non-applicable ones with why', async () => {
    const s = memServer('s', [ic(desc('v', 'validation'), allow), ic(desc('r', 'validation', { events: ['resources/read'] }), allow)]);
    const r = await new ChainRuntime([s], { overrides: { 's/v': { enabled: false } } }).run('tools/call', 'request', call('x'));
    expect(r.trace.steps.map((st) => [st.id, st.skipped])).toEqual([
      ['s/r', 'event-not-hooked'],
      ['s/v', 'disabled'],
    ]);
    expect(s.invocations).toHaveLength(0);
  });
});

describe('payload isolation', () => {
  it('an in-process handler mutating its input cannot corrupt the trace or the caller payload', async () => {
    const s = memServer('s', [
      ic(desc('vandal', 'validation'), (c) => {
        (c.payload as { arguments: { note: string } }).arguments.note = 'VANDALISED';
        return { valid: true };
      }),
      ic(desc('m', 'mutation'), appendNote('!')),
    ]);
    const input = call('x');
    const r = await new ChainRuntime([s]).run('tools/call', 'request', input);
    expect(input).toEqual(call('x'));
    expect(r.finalPayload).toEqual(call('x!'));
    expect(stepOf(r.trace, 's/vandal').input).toEqual(call('x!'));
    expect(r.trace.inputPayload).toEqual(call('x'));
    expect(r.trace.inputPayload).not.toBe(input);
  });
});

describe('FailureInjector', () => {
  it('forces the next invocation of one interceptor only, then the real one runs again', async () => {
    const s = memServer('s', [ic(desc('v', 'validation', { failOpen: true }), allow)]);
    const rt = new ChainRuntime([s]);
    const injector = new FailureInjector();
    expect(injector.simulator).toBeUndefined();
    injector.force('s/v', 'crash');
    const forced = await rt.run('tools/call', 'request', call('x'), { simulate: injector.simulator });
    expect(forced.trace.steps[0]).toMatchObject({ simulated: true, outcome: 'failed-open', error: { kind: 'crash' } });
    expect(injector.list()).toEqual([]);
    const normal = await rt.run('tools/call', 'request', call('x'), { simulate: injector.simulator });
    expect(normal.trace.steps[0]).toMatchObject({ outcome: 'allowed' });
    expect(normal.trace.steps[0]?.simulated).toBeUndefined();
    expect(s.invocations).toHaveLength(1);
  });
});
