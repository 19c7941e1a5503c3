// The chain engine over the real host SDK and invoker client: in-memory MCP transport pairs and
// real child processes over stdio.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainRuntime } from '../../src/main/interceptors/chain/index';
import { InterceptorServerClient } from '../../src/main/interceptors/client/index';
import { InterceptorHost } from '../../src/main/interceptors/host/index';
import { inMemoryClient, stepOf } from './helpers';

const open: InterceptorServerClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

function connect(name: string, host: InterceptorHost, failOpen = false): InterceptorServerClient {
  const c = inMemoryClient(name, host, failOpen);
  open.push(c);
  return c;
}

function appender(host: InterceptorHost, name: string, suffix: string, priorityHint?: number) {
  host.registerMutator({
    name,
    events: ['tools/call'],
    phase: 'both',
    ...(priorityHint !== undefined ? { priorityHint } : {}),
    handler: (payload) => {
      const p = structuredClone(payload) as { arguments: { note: string } };
      p.arguments.note += suffix;
      return { modified: true, payload: p };
    },
  });
}

const call = (note: string) => ({ name: 'echo', arguments: { note } });

/** `{a: {a: … {a: 'bottom'}}}`, `levels` objects deep, built without recursion. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { a: 'bottom' };
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

describe('chain engine over real hosts and clients (in-memory MCP transport)', () => {
  it('a mutator returning a payload nested 5,000 levels deep: a malformed result, fail-closed, recorded cut short', async () => {
    const host = new InterceptorHost();
    host.registerMutator({
      name: 'deepener',
      events: ['tools/call'],
      phase: 'request',
      handler: () => ({ modified: true, payload: { name: 'echo', arguments: nested(5000) } }),
    });
    const rt = new ChainRuntime([connect('s', host)]);
    const r = await rt.run('tools/call', 'request', call('x'));
    expect(r.decision).toBe('block');
    expect(r.finalPayload).toEqual(call('x'));
    const step = stepOf(r.trace, 's/deepener');
    expect(step.error).toMatchObject({ kind: 'malformed', message: expect.stringMatching(/nests deeper than 1000 levels/) });
    // The trace is what the recorder stores: it serializes, with the payload cut.
    expect(JSON.stringify(r.trace)).toContain('nested deeper than this: not recorded');
  });

  it('merges two hosts, equal names stay two interceptors, config is forwarded and checked by the host', async () => {
    const a = new InterceptorHost();
    const b = new InterceptorHost();
    appender(a, 'tag', 'A');
    appender(b, 'tag', 'B');
    appender(b, 'first', '1', -5);
    let seenConfig: unknown;
    a.registerValidator<{ allow: string[] }>({
      name: 'allowlist',
      events: ['tools/call'],
      phase: 'request',
      configSchema: { type: 'object', properties: { allow: { type: 'array', items: { type: 'string' } } }, required: ['allow'] },
      defaultConfig: { allow: [] },
      handler: (payload, { config }) => {
        seenConfig = config;
        return { valid: config.allow.includes((payload as { name: string }).name), severity: 'error' };
      },
    });
    const rt = new ChainRuntime([connect('b', b), connect('a', a)], { overrides: { 'a/allowlist': { config: { allow: ['echo'] } } } });
    const r = await rt.run('tools/call', 'request', call('x'), { context: { sessionId: 's1' } });
    expect(r.decision).toBe('allow');
    expect(r.finalPayload).toEqual(call('x1BA'));
    expect(seenConfig).toEqual({ allow: ['echo'] });
    expect(r.trace.steps.map((s) => s.id)).toEqual(['b/first', 'b/tag', 'a/tag', 'a/allowlist']);
    expect(r.trace.discovery.map((d) => [d.server, d.ok, d.interceptorCount])).toEqual([
      ['b', true, 2],
      ['a', true, 2],
    ]);

    // A config the host rejects (-32602) is an invocation failure: fail-closed blocks.
    rt.setOverrides({ 'a/allowlist': { config: { allow: 'echo' } } });
    const bad = await rt.run('tools/call', 'request', call('x'));
    expect(bad.decision).toBe('block');
    expect(stepOf(bad.trace, 'a/allowlist').error).toMatchObject({ kind: 'rpc', code: -32602 });
  });

  it('per-interceptor timeout reaches the host as -32000 or the local deadline, routed by failOpen; crashes likewise', async () => {
    const host = new InterceptorHost();
    let aborted = 0;
    const hang = (name: string, failOpen: boolean) =>
      host.registerValidator({
        name,
        events: ['tools/call'],
        phase: 'request',
        failOpen,
        handler: (_p, { signal }) =>
          new Promise<boolean>((_, reject) =>
            signal.addEventListener('abort', () => {
              aborted++;
              reject(new Error('aborted'));
            }),
          ),
      });
    hang('slow-open', true);
    hang('slow-closed', false);
    host.registerValidator({
      name: 'crashy',
      events: ['tools/call'],
      phase: 'request',
      failOpen: true,
      handler: () => {
        throw new Error('kaboom');
      },
    });
    const rt = new ChainRuntime([connect('s', host)], { overrides: { 's/slow-open': { timeoutMs: 80 }, 's/slow-closed': { timeoutMs: 80 } } });
    const r = await rt.run('tools/call', 'request', call('x'));
    expect(r.decision).toBe('block');
    expect(r.trace.status).toBe('validation_failed');
    expect(stepOf(r.trace, 's/slow-open')).toMatchObject({ outcome: 'failed-open', error: { kind: 'timeout' } });
    expect(stepOf(r.trace, 's/slow-closed')).toMatchObject({ outcome: 'blocked', error: { kind: 'timeout' } });
    expect(stepOf(r.trace, 's/crashy')).toMatchObject({ outcome: 'failed-open', error: { kind: 'crash', code: -32603 } });
    expect(aborted).toBe(2);
  });

  it('the whole-chain deadline cancels the in-flight invoke on the host', async () => {
    const host = new InterceptorHost();
    let cancelled = false;
    host.registerValidator({
      name: 'slow',
      events: ['tools/call'],
      phase: 'request',
      handler: (_p, { signal }) =>
        new Promise<boolean>((_, reject) =>
          signal.addEventListener('abort', () => {
            cancelled = true;
            reject(new Error('cancelled'));
          }),
        ),
    });
    const rt = new ChainRuntime([connect('s', host)]);
    const r = await rt.run('tools/call', 'request', call('x'), { timeoutMs: 100 });
    expect(r.trace.status).toBe('timeout');
    expect(r.decision).toBe('block');
    await expect.poll(() => cancelled, { timeout: 2000 }).toBe(true);
  });

  it('discovery failure of a real server: fail-closed blocks naming it, fail-open skips it', async () => {
    const ok = new InterceptorHost();
    ok.registerValidator({ name: 'v', events: ['tools/call'], phase: 'request', handler: () => true });
    const dead = (failOpen: boolean) => {
      const c = new InterceptorServerClient({
        name: 'dead',
        failOpen,
        autoReconnect: false,
        initializeTimeoutMs: 200,
        connection: { transport: 'custom', label: 'nowhere', connect: () => Promise.reject(new Error('connection refused')) },
      });
      open.push(c);
      return c;
    };
    const closed = await new ChainRuntime([connect('ok', ok), dead(false)]).run('tools/call', 'request', call('x'));
    expect(closed.decision).toBe('block');
    expect(closed.trace.status).toBe('discovery_failed');
    expect(closed.trace.blockedBy?.reason).toContain("'dead'");
    const openRun = await new ChainRuntime([connect('ok2', ok), dead(true)]).run('tools/call', 'request', call('x'));
    expect(openRun.decision).toBe('allow');
    expect(openRun.trace.discovery.find((d) => d.server === 'dead')).toMatchObject({ ok: false, failOpen: true });
  });
});

describe('chain engine over stdio interceptor servers', () => {
  const script = fileURLToPath(new URL('./fixtures/stdio-validator-host.ts', import.meta.url));
  const stdio = (name: string) => {
    const c = new InterceptorServerClient({ name, connection: { transport: 'stdio', command: process.execPath, args: ['--import', 'tsx', script, name] } });
    open.push(c);
    return c;
  };

  it('runs one merged chain over two child processes', async () => {
    const rt = new ChainRuntime([stdio('left'), stdio('right')]);
    const ok = await rt.run('tools/call', 'request', call('n'));
    expect(ok.decision).toBe('allow');
    // Equal names and priorities: configured server order decides.
    expect(ok.finalPayload).toEqual(call('n+left+right'));
    expect(ok.trace.steps.map((s) => `${s.id}:${s.outcome}`)).toEqual([
      'left/stamp:mutated',
      'right/stamp:mutated',
      'left/guard:allowed',
      'right/guard:allowed',
    ]);
    const denied = await rt.run('tools/call', 'request', call('forbidden'));
    expect(denied.decision).toBe('block');
    expect(denied.trace.blockedBy).toMatchObject({ server: 'left', interceptor: 'guard', messages: ['left forbids it'] });
    expect(denied.finalPayload).toEqual(call('forbidden'));
  });
});
