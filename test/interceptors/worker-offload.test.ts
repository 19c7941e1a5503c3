// Issue 15, deadlines that end work: an InterceptorHost with a WorkerHandlerPool runs handlers on
// worker threads, so a call that burns CPU forever (a) does not delay other calls, (b) is stopped
// when its deadline passes, and (c) is stopped when the invoker cancels it: the MCP client sends
// notifications/cancelled, the host aborts the call's signal, the pool terminates its worker.
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { InterceptorServerClient } from '../../src/main/interceptors/client';
import { InterceptorHost, resolveWorkerEntry, WorkerHandlerPool } from '../../src/main/interceptors/host';
import { createSampleHost } from '../../src/main/interceptors/samples';
import { ADVERSARIAL_CASES } from '../../bench/fixtures/adversarial-samples';
import { waitFor } from '../gateway/helpers';
import { echoSizeRegistration, spinRegistration } from './fixtures/busy-registrations';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c().catch(() => undefined);
});

function offloadedHost(): { host: InterceptorHost; pool: WorkerHandlerPool } {
  const entry = resolveWorkerEntry(import.meta.url, './fixtures/busy-worker.ts', 'none.js');
  if (!entry) throw new Error('no worker entry for the busy fixture');
  const pool = new WorkerHandlerPool({ entry, names: ['spin', 'echo-size'], size: 2, minPayloadBytes: 0 });
  const host = new InterceptorHost({ offload: pool });
  host.register(spinRegistration()).register(echoSizeRegistration());
  cleanup.push(() => host.close());
  return { host, pool };
}

function clientFor(host: InterceptorHost): InterceptorServerClient {
  const client = new InterceptorServerClient({
    name: 'busy',
    autoReconnect: false,
    connection: {
      transport: 'custom',
      connect: async () => {
        const [a, b] = InMemoryTransport.createLinkedPair();
        await host.createServer().connect(b);
        return a;
      },
    },
  });
  cleanup.push(() => client.close());
  return client;
}

const invoke = (name: string) => ({ name, event: 'tools/call', phase: 'request' as const, payload: { name: 'echo', arguments: { note: 'hi' } } });

describe('handlers on worker threads', { timeout: 30_000 }, () => {
  it('a call that never ends does not delay other calls', async () => {
    const { host, pool } = offloadedHost();
    const controller = new AbortController();
    const spinning = host.invoke(invoke('spin'), controller.signal).catch((e: unknown) => e);
    await waitFor(() => pool.stats().running === 1, 20_000, 'spin to start on a worker');
    // Both answered while spin is still burning its worker.
    await expect(host.invoke(invoke('echo-size'))).resolves.toMatchObject({ valid: true, info: { chars: expect.any(Number) } });
    await expect(host.invoke(invoke('echo-size'))).resolves.toMatchObject({ valid: true });
    expect(pool.stats()).toMatchObject({ running: 1, terminated: 0 });
    controller.abort(new Error('test done'));
    await spinning;
    expect(pool.stats()).toMatchObject({ running: 0, terminated: 1 });
  });

  it('a call past its deadline is answered -32000 and its work is stopped', async () => {
    const { host, pool } = offloadedHost();
    const err = await host.invoke({ ...invoke('spin'), timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: -32000, data: { interceptor: 'spin', timeoutMs: 300 } });
    expect(pool.stats()).toMatchObject({ running: 0, terminated: 1 });
    // The pool replaces the worker: the next call is served.
    await expect(host.invoke(invoke('echo-size'))).resolves.toMatchObject({ valid: true });
  });

  it('an invoke the invoker cancels is cancelled on the server (notifications/cancelled) and its work stops', async () => {
    const { host, pool } = offloadedHost();
    const client = clientFor(host);
    const controller = new AbortController();
    const call = client.invoke(invoke('spin'), { signal: controller.signal }).catch((e: unknown) => e);
    await waitFor(() => pool.stats().running === 1, 20_000, 'spin to start on a worker');
    controller.abort(new Error('the caller gave up'));
    expect(await call).toMatchObject({ kind: 'cancelled' });
    await waitFor(() => pool.stats().terminated === 1, 20_000, 'the host to stop the cancelled work');
    expect(pool.stats().running).toBe(0);
  });
});

describe('serve-samples: the samples on worker threads', { timeout: 60_000 }, () => {
  it('give the same verdicts as inline on every adversarial case (cross-boundary-guard scans on a worker, taint kept on the host)', async () => {
    for (const c of ADVERSARIAL_CASES) {
      const host = createSampleHost({ log: () => undefined, workers: { minPayloadBytes: 0, size: 2 } });
      cleanup.push(() => host.close());
      for (const p of c.setup ?? []) await host.invoke(p);
      const result = (await host.invoke(c.params(64 * 1024))) as unknown as Record<string, unknown>;
      expect(result, `${c.sample}: ${c.input}`).toMatchObject(c.expected);
      expect(c.check?.(result)).toBeUndefined();
    }
  });
});
