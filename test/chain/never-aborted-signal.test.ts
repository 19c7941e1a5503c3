// Runs that nothing can abort (#26): no whole-chain deadline and no caller's signal, which is the gateway's
// response phase. They share one signal that never aborts instead of an AbortController each (~10 µs), and
// race nothing. Shared, it must not collect listeners: every kind of handle removes its own when the
// invocation ends (an SDK client, the stdio lane, an in-process host, an entry with its own timeout), and a
// run with a deadline or a caller's signal still gets a signal of its own.
import { getEventListeners } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainRuntime } from '../../src/main/interceptors/chain/index';
import { ChainClock } from '../../src/main/interceptors/chain/run';
import { InterceptorServerClient } from '../../src/main/interceptors/client/index';
import { InterceptorHost } from '../../src/main/interceptors/host/index';
import { InProcessHostHandle } from '../../src/main/interceptors/bundled/in-process-handle';
import { inMemoryClient } from './helpers';

const open: InterceptorServerClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

function validatorHost(name: string, answer: () => boolean | Promise<boolean>): InterceptorHost {
  const host = new InterceptorHost({ serverInfo: { name, version: '0.0.0' } });
  host.registerValidator({ name: 'check', events: ['tools/call'], phase: 'both', handler: async () => ({ valid: await answer(), severity: 'error' }) });
  return host;
}

function inMemory(name: string, host: InterceptorHost): InterceptorServerClient {
  const c = inMemoryClient(name, host);
  open.push(c);
  return c;
}

function stdio(name: string): InterceptorServerClient {
  const script = fileURLToPath(new URL('./fixtures/stdio-validator-host.ts', import.meta.url));
  const c = new InterceptorServerClient({ name, connection: { transport: 'stdio', command: process.execPath, args: ['--import', 'tsx', script, name] } });
  open.push(c);
  return c;
}

const neverAborted = () => {
  const clock = new ChainClock(undefined);
  clock.dispose();
  return clock.signal;
};

describe('a run nothing can abort', () => {
  it('shares one signal that never aborts, and has nothing to race', () => {
    const a = new ChainClock(undefined);
    const b = new ChainClock(undefined);
    expect(a.signal).toBe(b.signal);
    expect(a.signal.aborted).toBe(false);
    expect(a.aborted).toBeUndefined();
    a.dispose();
    b.dispose();
    // A deadline or a caller's signal: its own signal, abortable as before.
    const caller = new AbortController();
    const withCaller = new ChainClock(undefined, caller.signal);
    const withDeadline = new ChainClock(60_000);
    expect(withCaller.signal).toBe(caller.signal);
    expect(withDeadline.signal).not.toBe(a.signal);
    expect(withDeadline.aborted).toBeInstanceOf(Promise);
    withCaller.dispose();
    withDeadline.dispose();
  });

  it('keeps no listener once the invocations of such runs end, whatever handle ran them', async () => {
    let slowAnswers = 0;
    const slow = validatorHost('slow', () => new Promise<boolean>((resolve) => setTimeout(() => resolve(++slowAnswers > 0), 5)));
    const handles = [
      inMemory(
        'sdk',
        validatorHost('sdk', () => true),
      ),
      inMemory('slow', slow),
      stdio('stdio'),
      new InProcessHostHandle(
        'local',
        validatorHost('local', () => true),
      ),
    ];
    const rt = new ChainRuntime(handles, { overrides: { 'slow/check': { timeoutMs: 5_000 } } });
    const payload = { content: [{ type: 'text', text: 'ok' }] };
    const runs = await Promise.all(Array.from({ length: 20 }, () => rt.run('tools/call', 'response', payload)));
    for (const r of runs) {
      expect(r.decision).toBe('allow');
      expect(
        r.trace.steps
          .filter((s) => !s.skipped)
          .map((s) => `${s.id}:${s.outcome}`)
          .sort(),
      ).toEqual(['local/check:allowed', 'sdk/check:allowed', 'slow/check:allowed', 'stdio/guard:allowed']);
    }
    expect(slowAnswers).toBe(20);
    expect(getEventListeners(neverAborted(), 'abort')).toHaveLength(0);
  });
});
