// The host over a real in-memory MCP transport, seen by a stock SDK client: capability, list
// (filters, wildcard refusal, pagination), invoke and every error code of the protocol.
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InterceptorHost } from '../../src/main/interceptors/host';
import { INTERCEPTORS_EXTENSION_ID } from '../../src/shared/protocol';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(host: InterceptorHost): Promise<Client> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await host.createServer().connect(b);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(a);
  clients.push(client);
  return client;
}

function call(client: Client, method: string, params?: Record<string, unknown>): Promise<unknown> {
  return client.request({ method, params }, z.unknown());
}

async function rpcError(p: Promise<unknown>): Promise<{ code: number; message: string; data: unknown }> {
  try {
    await p;
  } catch (err) {
    if (ProtocolError.isInstance(err)) return { code: err.code, message: err.message, data: err.data };
    throw err;
  }
  throw new Error('expected a JSON-RPC error');
}

function sampleHost(options: ConstructorParameters<typeof InterceptorHost>[0] = {}): InterceptorHost {
  const host = new InterceptorHost(options);
  host.registerValidator({ name: 'allow', events: ['tools/call'], phase: 'both', handler: () => true });
  host.registerMutator({
    name: 'upper',
    description: 'upper-cases arguments.note',
    events: ['tools/call'],
    phase: 'request',
    priorityHint: -5,
    handler: (payload) => {
      const p = payload as { arguments?: { note?: unknown } };
      if (typeof p.arguments?.note !== 'string') return { modified: false };
      return { modified: true, payload: { ...p, arguments: { ...p.arguments, note: p.arguments.note.toUpperCase() } } };
    },
  });
  host.registerSink({ name: 'log', phase: 'both', handler: () => ({ recorded: true, metrics: { n: 1 } }) });
  host.registerValidator({ name: 'prompts-only', events: ['prompts/*'], phase: 'response', mode: 'audit', failOpen: true, handler: () => true });
  return host;
}

describe('InterceptorHost capability and list', () => {
  it('advertises the extension with sorted unique events, never top-level capabilities.interceptor', async () => {
    const client = await connect(sampleHost());
    const caps = client.getServerCapabilities() as Record<string, unknown> & { extensions?: Record<string, unknown> };
    expect(caps.extensions?.[INTERCEPTORS_EXTENSION_ID]).toEqual({ supportedEvents: ['*', 'prompts/*', 'tools/call'] });
    expect(caps.interceptor).toBeUndefined();
    const empty = await connect(new InterceptorHost());
    expect(empty.getServerCapabilities()?.extensions?.[INTERCEPTORS_EXTENSION_ID]).toEqual({ supportedEvents: ['*'] });
  });

  it('lists descriptors in registration order in wire shape (defaults omitted, both → two hooks)', async () => {
    const client = await connect(sampleHost());
    const result = (await call(client, 'interceptors/list')) as { interceptors: Record<string, unknown>[] };
    expect(result.interceptors.map((d) => d.name)).toEqual(['allow', 'upper', 'log', 'prompts-only']);
    expect(result.interceptors[0]).toEqual({
      name: 'allow',
      type: 'validation',
      hooks: [
        { events: ['tools/call'], phase: 'request' },
        { events: ['tools/call'], phase: 'response' },
      ],
    });
    expect(result.interceptors[1]).toMatchObject({ description: 'upper-cases arguments.note', priorityHint: -5 });
    expect(result.interceptors[3]).toMatchObject({ mode: 'audit', failOpen: true });
    expect('nextCursor' in result).toBe(false);
  });

  it('filters by event (exact, "*", namespace glob); a wildcard query answers the interceptors hooking it', async () => {
    const client = await connect(sampleHost());
    const names = async (event: string) =>
      ((await call(client, 'interceptors/list', { event })) as { interceptors: { name: string }[] }).interceptors.map((d) => d.name);
    expect(await names('tools/call')).toEqual(['allow', 'upper', 'log']);
    expect(await names('prompts/get')).toEqual(['log', 'prompts-only']);
    expect(await names('resources/read')).toEqual(['log']);
    // The TS reference sends event:"*": interceptors hooking "*" (here `log`), as that host answers it.
    expect(await names('*')).toEqual(['log']);
    expect(await names('tools/*')).toEqual(['log']);
    expect(await names('prompts/*')).toEqual(['log', 'prompts-only']);
    expect(await names('prompts/**')).toEqual(['log']);
    const err = await rpcError(call(client, 'interceptors/list', { event: '' }));
    expect(err.code).toBe(-32602);
    expect((await rpcError(call(client, 'interceptors/list', { event: 7 }))).code).toBe(-32602);
  });

  it('pages with nextCursor and refuses an unknown cursor', async () => {
    const host = new InterceptorHost({ pageSize: 2 });
    for (let i = 0; i < 5; i++) host.registerValidator({ name: `v${i}`, phase: 'request', handler: () => true });
    const client = await connect(host);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = (await call(client, 'interceptors/list', cursor ? { cursor } : {})) as {
        interceptors: { name: string }[];
        nextCursor?: string;
      };
      seen.push(...page.interceptors.map((d) => d.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(['v0', 'v1', 'v2', 'v3', 'v4']);
    expect((await rpcError(call(client, 'interceptors/list', { cursor: 'garbage' }))).code).toBe(-32602);
  });

  it('refuses duplicate names and broken registrations at registration time', () => {
    const host = sampleHost();
    expect(() => host.registerValidator({ name: 'allow', phase: 'request', handler: () => true })).toThrow(/already registered/);
    expect(() => host.registerValidator({ name: 'x', phase: 'sideways' as never, handler: () => true })).toThrow(/phase/);
    expect(() =>
      host.registerValidator({ name: 'y', phase: 'request', configSchema: { type: 'object', properties: { a: { type: 'nope' } } }, handler: () => true }),
    ).toThrow(/invalid configSchema/);
  });
});

describe('InterceptorHost invoke', () => {
  it('returns results with interceptor, type, phase and durationMs; wraps a boolean', async () => {
    const client = await connect(sampleHost());
    const r = (await call(client, 'interceptor/invoke', { name: 'allow', event: 'tools/call', phase: 'response', payload: {} })) as Record<string, unknown>;
    expect(r).toMatchObject({ interceptor: 'allow', type: 'validation', phase: 'response', valid: true });
    expect(typeof r.durationMs).toBe('number');
    const m = (await call(client, 'interceptor/invoke', {
      name: 'upper',
      event: 'tools/call',
      phase: 'request',
      payload: { name: 'echo', arguments: { other: 1 } },
    })) as Record<string, unknown>;
    // An unmodified mutation still carries the payload (conformance "known quirks").
    expect(m).toMatchObject({ modified: false, payload: { name: 'echo', arguments: { other: 1 } } });
    const s = await call(client, 'interceptor/invoke', { name: 'log', event: 'x/y', phase: 'request', payload: 1 });
    expect(s).toMatchObject({ type: 'sink', recorded: true, metrics: { n: 1 } });
  });

  it('unknown name → -32602 "Interceptor \'<name>\' not found" with data {name}; bad params → -32602', async () => {
    const client = await connect(sampleHost());
    const err = await rpcError(call(client, 'interceptor/invoke', { name: 'ghost', event: 'tools/call', phase: 'request', payload: {} }));
    expect(err).toEqual({ code: -32602, message: "Interceptor 'ghost' not found", data: { name: 'ghost' } });
    const bad = await rpcError(call(client, 'interceptor/invoke', { name: 'allow', event: 'tools/call', phase: 'both', payload: {} }));
    expect(bad.code).toBe(-32602);
    expect(bad.message).toContain('phase');
    expect((await rpcError(call(client, 'interceptor/invoke'))).code).toBe(-32602);
  });

  it('checks config against configSchema with ajv → -32602 naming the failing path', async () => {
    const host = new InterceptorHost();
    host.registerValidator<{ allow: string[] }>({
      name: 'allowlist',
      phase: 'request',
      configSchema: { type: 'object', properties: { allow: { type: 'array', items: { type: 'string' } } }, required: ['allow'] },
      handler: (_p, { config }) => config.allow.includes('ok'),
    });
    const client = await connect(host);
    const base = { name: 'allowlist', event: 'tools/call', phase: 'request', payload: {} };
    const wrongItem = await rpcError(call(client, 'interceptor/invoke', { ...base, config: { allow: ['a', 3] } }));
    expect(wrongItem.code).toBe(-32602);
    expect(wrongItem.message).toContain('config.allow[1] must be string');
    const missing = await rpcError(call(client, 'interceptor/invoke', base));
    expect(missing.message).toContain("must have required property 'allow'");
    expect(await call(client, 'interceptor/invoke', { ...base, config: { allow: ['ok'] } })).toMatchObject({ valid: true });
  });

  it('a handler past its deadline → -32000 with {interceptor, timeoutMs, phase} and its signal aborted', async () => {
    const host = new InterceptorHost({ defaultTimeoutMs: 150 });
    let aborted = false;
    host.registerValidator({
      name: 'slow',
      phase: 'both',
      handler: (_p, { signal }) =>
        new Promise<boolean>((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve(true);
          });
        }),
    });
    const client = await connect(host);
    const err = await rpcError(call(client, 'interceptor/invoke', { name: 'slow', event: 'e/x', phase: 'response', payload: {}, timeoutMs: 60 }));
    expect(err).toEqual({
      code: -32000,
      message: "Interceptor 'slow' timed out after 60ms",
      data: { interceptor: 'slow', timeoutMs: 60, phase: 'response' },
    });
    expect(aborted).toBe(true);
    // Without timeoutMs the host default applies.
    const viaDefault = await rpcError(call(client, 'interceptor/invoke', { name: 'slow', event: 'e/x', phase: 'request', payload: {} }));
    expect(viaDefault.data).toEqual({ interceptor: 'slow', timeoutMs: 150, phase: 'request' });
  });

  it('a timeoutMs past what a Node timer holds is held to a day, not fired at once', async () => {
    const host = new InterceptorHost();
    host.registerValidator({ name: 'takes-50ms', phase: 'request', handler: () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 50)) });
    const client = await connect(host);
    const result = await call(client, 'interceptor/invoke', { name: 'takes-50ms', event: 'e/x', phase: 'request', payload: {}, timeoutMs: 3_000_000_000 });
    expect(result).toMatchObject({ valid: true });
  });

  it('a throwing handler → -32603 with {interceptor, reason}, never a validation result', async () => {
    const host = new InterceptorHost();
    host.registerValidator({
      name: 'boom',
      phase: 'request',
      handler: () => {
        throw new Error('kaput');
      },
    });
    host.registerValidator({ name: 'boom-async', phase: 'request', handler: async () => Promise.reject(new Error('later')) });
    const client = await connect(host);
    const err = await rpcError(call(client, 'interceptor/invoke', { name: 'boom', event: 'tools/call', phase: 'request', payload: {} }));
    expect(err).toEqual({ code: -32603, message: 'Interceptor invocation failed: kaput', data: { interceptor: 'boom', reason: 'kaput' } });
    const err2 = await rpcError(call(client, 'interceptor/invoke', { name: 'boom-async', event: 'tools/call', phase: 'request', payload: {} }));
    expect(err2.code).toBe(-32603);
  });

  it('a malformed handler result → -32603 (wrong shape, modified:false with a changed payload)', async () => {
    const host = new InterceptorHost();
    host.registerValidator({ name: 'shapeless', phase: 'request', handler: () => ({ valid: 'yes' }) as never });
    host.registerValidator({ name: 'nothing', phase: 'request', handler: () => undefined as never });
    host.registerMutator({ name: 'liar', phase: 'request', handler: () => ({ modified: false, payload: { changed: true } }) });
    host.registerSink({ name: 'bad-sink', phase: 'request', handler: () => ({ recorded: 'sure' }) as never });
    const client = await connect(host);
    for (const name of ['shapeless', 'nothing', 'liar', 'bad-sink']) {
      const err = await rpcError(call(client, 'interceptor/invoke', { name, event: 'tools/call', phase: 'request', payload: { a: 1 } }));
      expect(err.code, name).toBe(-32603);
      expect(err.message, name).toContain('malformed result');
      expect(err.data, name).toMatchObject({ interceptor: name });
    }
  });

  it('host-owned fields overwrite what a handler returns', async () => {
    const host = new InterceptorHost();
    host.registerValidator({ name: 'real', phase: 'request', handler: () => ({ valid: true, interceptor: 'fake', phase: 'response' }) as never });
    const client = await connect(host);
    const r = await call(client, 'interceptor/invoke', { name: 'real', event: 'tools/call', phase: 'request', payload: {} });
    expect(r).toMatchObject({ interceptor: 'real', phase: 'request', type: 'validation' });
  });
});
