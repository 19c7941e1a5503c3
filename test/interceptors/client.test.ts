// The invoker against real MCP servers on in-memory transports: discovery (pages, malformed
// descriptors, caching, list_changed), invoke error kinds, result checks and cancellation.
import { InMemoryTransport, ProtocolError, Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InterceptorServerClient } from '../../src/main/interceptors/client';
import { InterceptorHost } from '../../src/main/interceptors/host';
import { InvokeError } from '../../src/main/interceptors/server-handle';
import { INTERCEPTORS_EXTENSION_ID } from '../../src/shared/protocol';
import { inMemoryClient } from './helpers';

const open: InterceptorServerClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});
function track(c: InterceptorServerClient): InterceptorServerClient {
  open.push(c);
  return c;
}

/** A hand-written server that answers list/invoke with whatever the test wants. */
function rawServer(list: (params: unknown) => unknown, invoke: (params: unknown) => unknown, capability = true): () => Server {
  return () => {
    const server = new Server(
      { name: 'raw', version: '1' },
      { capabilities: capability ? { extensions: { [INTERCEPTORS_EXTENSION_ID]: { supportedEvents: ['*'] } } } : {} },
    );
    server.setRequestHandler('interceptors/list', { params: z.unknown() }, async (p) => list(p) as never);
    server.setRequestHandler('interceptor/invoke', { params: z.unknown() }, async (p) => invoke(p) as never);
    return server;
  };
}

async function invokeError(p: Promise<unknown>): Promise<InvokeError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof InvokeError) return err;
    throw err;
  }
  throw new Error('expected an InvokeError');
}

const call = { name: 'v', event: 'tools/call', phase: 'request' as const, payload: { name: 'echo', arguments: { note: 'x' } } };

describe('InterceptorServerClient discovery', () => {
  it('connects, records the negotiated protocol version, and drains pages', async () => {
    const host = new InterceptorHost({ pageSize: 2 });
    for (let i = 0; i < 5; i++) host.registerValidator({ name: `v${i}`, phase: 'request', handler: () => true });
    const client = track(inMemoryClient(host));
    const statuses: string[] = [];
    client.onStatus((s) => statuses.push(s.state));
    const result = await client.discover();
    expect(result.interceptors.map((d) => d.name)).toEqual(['v0', 'v1', 'v2', 'v3', 'v4']);
    expect(result.skipped).toEqual([]);
    expect(client.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(client.status).toMatchObject({ state: 'connected', failures: 0, protocolVersion: client.protocolVersion });
    expect(statuses).toEqual(['connecting', 'connected']);
  });

  it('skips malformed descriptors and unknown type/mode with a recorded reason', async () => {
    const client = track(
      inMemoryClient(
        rawServer(
          () => ({
            interceptors: [
              { name: 'good', type: 'validation', hooks: [{ events: ['*'], phase: 'request' }] },
              { name: 'alien', type: 'observability', hooks: [] },
              { name: 'weird-mode', type: 'mutation', mode: 'shadow', hooks: [] },
              { type: 'validation', hooks: [] },
              'not an object',
              { name: 'good', type: 'sink', hooks: [] },
              { name: 'legacy', type: 'validation', mode: 'enforce', hooks: [{ events: ['*/request'], phase: 'request' }] },
            ],
          }),
          () => ({}),
        ),
      ),
    );
    const result = await client.discover();
    expect(result.interceptors.map((d) => d.name)).toEqual(['good', 'legacy']);
    expect(result.interceptors[1]?.mode).toBe('active');
    expect(result.skipped).toHaveLength(5);
    expect(result.skipped[0]).toMatchObject({ name: 'alien' });
    expect(result.skipped[0]?.reason).toContain('unknown type "observability"');
    expect(result.skipped[1]?.reason).toContain('unknown mode "shadow"');
    expect(result.skipped[2]?.reason).toContain('name');
    expect(result.skipped[4]?.reason).toContain('duplicate');
  });

  it('fails discovery clearly on a malformed list result or a looping cursor', async () => {
    const bad = track(
      inMemoryClient(
        rawServer(
          () => ({ interceptors: 'nope' }),
          () => ({}),
        ),
      ),
    );
    await expect(bad.discover()).rejects.toThrow(/malformed result: interceptors/);
    const loop = track(
      inMemoryClient(
        rawServer(
          () => ({ interceptors: [], nextCursor: 'same' }),
          () => ({}),
        ),
      ),
    );
    await expect(loop.discover()).rejects.toThrow(/repeated cursor/);
  });

  it('caches discovery per connection; refresh and list_changed refetch', async () => {
    const host = new InterceptorHost();
    host.registerValidator({ name: 'a', phase: 'request', handler: () => true });
    let lists = 0;
    const client = track(
      inMemoryClient(() => {
        const server = host.createServer();
        server.setRequestHandler('interceptors/list', { params: z.unknown() }, async (p) => {
          lists++;
          return host.list(p) as never;
        });
        return server;
      }),
    );
    await client.discover();
    await client.discover();
    expect(lists).toBe(1);
    await client.discover({ refresh: true });
    expect(lists).toBe(2);
    const changed = new Promise<void>((resolve) => client.onDiscoveryChanged((r) => r === undefined && resolve()));
    host.registerValidator({ name: 'b', phase: 'request', handler: () => true });
    await changed; // notifications/interceptors/list_changed invalidated the cache
    expect((await client.discover()).interceptors.map((d) => d.name)).toEqual(['a', 'b']);
    expect(lists).toBe(3);
  });

  it('refuses a server without the capability, and explains -32601 from a host lacking list', async () => {
    const noCap = track(
      inMemoryClient(
        rawServer(
          () => ({ interceptors: [] }),
          () => ({}),
          false,
        ),
      ),
    );
    await expect(noCap.discover()).rejects.toThrow(/does not advertise the interceptors extension/);
    expect(noCap.status.state).toBe('failed');
    const bare = track(inMemoryClient(() => new Server({ name: 'bare', version: '1' }, { capabilities: { extensions: { [INTERCEPTORS_EXTENSION_ID]: {} } } })));
    await expect(bare.discover()).rejects.toThrow(/does not implement interceptors\/list \(JSON-RPC -32601\)/);
  });

  it('a server that never answers initialize times out with a clear error', async () => {
    const silent = track(
      new InterceptorServerClient({
        name: 'silent',
        initializeTimeoutMs: 200,
        connection: {
          transport: 'custom',
          label: 'black hole',
          connect: () => {
            const [clientSide] = InMemoryTransport.createLinkedPair(); // nobody listens on the other end
            return clientSide;
          },
        },
      }),
    );
    const started = Date.now();
    await expect(silent.discover()).rejects.toThrow('server at black hole did not answer initialize within 200ms');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(silent.status).toMatchObject({ state: 'failed', failures: 1 });
  });
});

describe('InterceptorServerClient background reconnect', () => {
  it('keeps retrying with backoff after a failed connect and recovers without traffic', async () => {
    const host = new InterceptorHost();
    host.registerValidator({ name: 'v', phase: 'request', handler: () => true });
    let attempts = 0;
    const client = track(
      new InterceptorServerClient({
        name: 'late',
        backoff: { initialMs: 30, maxMs: 60 },
        connection: {
          transport: 'custom',
          label: 'late starter',
          connect: async () => {
            attempts++;
            if (attempts < 3) throw new Error('connection refused');
            const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
            await host.createServer().connect(serverSide);
            return clientSide;
          },
        },
      }),
    );
    const states: string[] = [];
    const connected = new Promise<void>((resolve) => client.onStatus((s) => (states.push(s.state), s.state === 'connected' && resolve())));
    await expect(client.connect()).rejects.toThrow('could not connect to server at late starter: connection refused');
    await connected;
    expect(attempts).toBe(3);
    expect(states.filter((s) => s === 'failed')).toHaveLength(2);
    expect(client.status.failures).toBe(0);
  });
});

describe('InterceptorServerClient invoke', () => {
  function failingHost(): InterceptorHost {
    const host = new InterceptorHost();
    host.registerValidator({ name: 'v', events: ['tools/call'], phase: 'request', handler: () => ({ valid: false, severity: 'warn' }) });
    host.registerValidator({
      name: 'crash',
      phase: 'request',
      handler: () => {
        throw new Error('bad day');
      },
    });
    host.registerValidator({
      name: 'hang',
      phase: 'request',
      handler: (_p, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(true))),
    });
    return host;
  }

  it('returns checked results and sends timeoutMs', async () => {
    const client = track(inMemoryClient(failingHost()));
    await client.discover();
    const r = await client.invoke(call, { timeoutMs: 1000 });
    expect(r).toMatchObject({ interceptor: 'v', type: 'validation', phase: 'request', valid: false, severity: 'warn' });
  });

  it('sends a fractional deadline as a whole number of ms', async () => {
    const client = track(inMemoryClient(failingHost()));
    expect(await client.invoke(call, { timeoutMs: 99.2 })).toMatchObject({ valid: false });
    const err = await invokeError(client.invoke({ ...call, name: 'hang' }, { timeoutMs: 20.5 }));
    expect(err.data).toMatchObject({ timeoutMs: 21 });
  });

  it('maps host errors: -32000 → timeout, -32603 → crash, -32602 → rpc', async () => {
    const client = track(inMemoryClient(failingHost()));
    const timeout = await invokeError(client.invoke({ ...call, name: 'hang' }, { timeoutMs: 80 }));
    expect(timeout.kind).toBe('timeout');
    expect(timeout.code).toBe(-32000);
    expect(timeout.data).toEqual({ interceptor: 'hang', timeoutMs: 80, phase: 'request' });
    const crash = await invokeError(client.invoke({ ...call, name: 'crash' }));
    expect(crash).toMatchObject({ kind: 'crash', code: -32603, data: { interceptor: 'crash', reason: 'bad day' } });
    const unknown = await invokeError(client.invoke({ ...call, name: 'ghost' }));
    expect(unknown).toMatchObject({ kind: 'rpc', code: -32602 });
  });

  it('treats -32603 with data.reason "timeout" (S4) as a timeout', async () => {
    const client = track(
      inMemoryClient(
        rawServer(
          () => ({ interceptors: [] }),
          () => {
            throw new ProtocolError(-32603, 'Interceptor timed out', { interceptor: 'v', reason: 'timeout', timeoutMs: 5 });
          },
        ),
      ),
    );
    const err = await invokeError(client.invoke(call));
    expect(err).toMatchObject({ kind: 'timeout', code: -32603 });
  });

  it('enforces the deadline locally when the host ignores it', async () => {
    const client = track(
      inMemoryClient(
        rawServer(
          () => ({ interceptors: [] }),
          () => new Promise(() => undefined),
        ),
        { timeoutGraceMs: 50 },
      ),
    );
    const started = Date.now();
    const err = await invokeError(client.invoke(call, { timeoutMs: 100 }));
    expect(err.kind).toBe('timeout');
    expect(err.message).toContain('invoker-side deadline');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('cancels through the signal: kind cancelled, and the host handler sees its signal abort', async () => {
    const host = new InterceptorHost();
    let hostAborted!: () => void;
    const hostSawAbort = new Promise<void>((r) => (hostAborted = r));
    let hostStarted!: () => void;
    const hostHasCall = new Promise<void>((r) => (hostStarted = r));
    host.registerValidator({
      name: 'v',
      phase: 'request',
      handler: (_p, { signal }) =>
        new Promise(() => {
          signal.addEventListener('abort', () => hostAborted());
          hostStarted();
        }),
    });
    const client = track(inMemoryClient(host));
    const ac = new AbortController();
    const pending = invokeError(client.invoke(call, { signal: ac.signal, timeoutMs: 5_000 }));
    await hostHasCall; // cancelled while the host works on it
    ac.abort();
    expect((await pending).kind).toBe('cancelled');
    await hostSawAbort; // notifications/cancelled reached the host
  });

  it('rejects malformed results: wrong shape, no echo, modified:false with a different payload', async () => {
    const answers: unknown[] = [
      { interceptor: 'v', type: 'validation', phase: 'request', valid: 'yes' },
      { interceptor: 'other', type: 'validation', phase: 'request', valid: true },
      { interceptor: 'v', type: 'validation', phase: 'response', valid: true },
      { interceptor: 'v', type: 'mutation', phase: 'request', modified: false, payload: { name: 'echo', arguments: { note: 'y' } } },
      { interceptor: 'v', type: 'observability', phase: 'request', observed: true },
    ];
    let i = 0;
    const client = track(
      inMemoryClient(
        rawServer(
          () => ({ interceptors: [] }),
          () => answers[i++],
        ),
      ),
    );
    const reasons: string[] = [];
    for (let k = 0; k < answers.length; k++) {
      const err = await invokeError(client.invoke(call));
      expect(err.kind).toBe('malformed');
      reasons.push(err.message);
    }
    expect(reasons[1]).toContain("interceptor is 'other'");
    expect(reasons[2]).toContain("phase is 'response'");
    expect(reasons[3]).toContain('modified:false with a payload different');
  });

  it('checks the type against discovery', async () => {
    const client = track(
      inMemoryClient(
        rawServer(
          () => ({ interceptors: [{ name: 'v', type: 'mutation', hooks: [{ events: ['*'], phase: 'request' }] }] }),
          () => ({ interceptor: 'v', type: 'validation', phase: 'request', valid: true }),
        ),
      ),
    );
    await client.discover();
    const err = await invokeError(client.invoke(call));
    expect(err).toMatchObject({ kind: 'malformed' });
    expect(err.message).toContain("type is 'validation', expected 'mutation'");
  });

  it('accepts an unmodified mutation echoing the input with keys in another order', async () => {
    const client = track(
      inMemoryClient(
        rawServer(
          () => ({ interceptors: [] }),
          () => ({ interceptor: 'v', type: 'mutation', phase: 'request', modified: false, payload: { arguments: { note: 'x' }, name: 'echo' } }),
        ),
      ),
    );
    expect(await client.invoke(call)).toMatchObject({ modified: false });
  });
});
