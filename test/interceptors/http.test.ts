// Host and invoker over real Streamable HTTP (loopback): sessions, token, list_changed over the
// wire, and a server that goes away then comes back on the same port.
import { afterEach, describe, expect, it } from 'vitest';
import { InterceptorServerClient } from '../../src/main/interceptors/client';
import { InterceptorHost, serveHostOverHttp, type HttpServing } from '../../src/main/interceptors/host';
import { createSampleHost } from '../../src/main/interceptors/samples';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(host: InterceptorHost, opts: Parameters<typeof serveHostOverHttp>[1] = {}): Promise<HttpServing> {
  const s = await serveHostOverHttp(host, opts);
  cleanups.push(() => s.close());
  return s;
}

function httpClient(url: string, headers?: Record<string, string>): InterceptorServerClient {
  const c = new InterceptorServerClient({ name: 'http', connection: { transport: 'http', url, headers }, backoff: { initialMs: 50 } });
  cleanups.push(() => c.close());
  return c;
}

describe('Streamable HTTP', () => {
  it('binds to 127.0.0.1 by default; invokes through the token check', async () => {
    const s = await serve(createSampleHost({ log: () => undefined }), { token: 'abc' });
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = httpClient(s.url, { Authorization: 'Bearer abc' });
    expect((await client.discover()).interceptors).toHaveLength(7);
    const r = await client.invoke({ name: 'email-redactor', event: 'tools/call', phase: 'request', payload: { arguments: { to: 'x@y.org' } } });
    expect(r).toMatchObject({ modified: true, payload: { arguments: { to: '[EMAIL_REDACTED]' } } });
    await expect(httpClient(s.url, { Authorization: 'Bearer wrong' }).connect()).rejects.toThrow(/Unauthorized/);
  });

  it('keeps one MCP session per client, each seeing list_changed', async () => {
    const host = new InterceptorHost();
    host.registerValidator({ name: 'a', phase: 'request', handler: () => true });
    const s = await serve(host);
    const one = httpClient(s.url);
    const two = httpClient(s.url);
    await Promise.all([one.discover(), two.discover()]);
    const changed = Promise.all([one, two].map((c) => new Promise<void>((resolve) => c.onDiscoveryChanged((r) => r === undefined && resolve()))));
    host.registerValidator({ name: 'b', phase: 'request', handler: () => true });
    await changed;
    expect((await one.discover()).interceptors.map((d) => d.name)).toEqual(['a', 'b']);
  });

  it('a server that goes away fails the invoke as transport, and the client reconnects when it is back', async () => {
    const host = new InterceptorHost();
    host.registerValidator({ name: 'ok', phase: 'request', handler: () => true });
    const first = await serveHostOverHttp(host);
    const client = httpClient(first.url);
    const call = { name: 'ok', event: 'tools/call', phase: 'request' as const, payload: {} };
    await client.invoke(call);
    await first.close();
    await expect(client.invoke(call)).rejects.toMatchObject({ kind: 'transport' });
    const second = await serve(host, { port: first.port });
    expect(second.url).toBe(first.url);
    // The retired connection is replaced (immediately or after a short backoff) by a new session.
    let result: unknown;
    for (let i = 0; i < 40 && !result; i++) {
      result = await client.invoke(call).catch(() => new Promise((r) => setTimeout(() => r(undefined), 50)));
    }
    expect(result).toMatchObject({ interceptor: 'ok', valid: true });
    expect(client.status.state).toBe('connected');
  });
});

describe('Streamable HTTP session bounds', () => {
  it('closing a client ends its session, and past maxSessions the least recently used one is evicted', async () => {
    const host = new InterceptorHost();
    host.registerValidator({ name: 'ok', phase: 'request', handler: () => true });
    const s = await serve(host, { maxSessions: 2 });
    const call = { name: 'ok', event: 'tools/call', phase: 'request' as const, payload: {} };
    // Many short-lived clients (the CLI's pattern) never exhaust the server.
    for (let i = 0; i < 5; i++) {
      const c = new InterceptorServerClient({ name: `c${i}`, connection: { transport: 'http', url: s.url } });
      await c.invoke(call);
      await c.close();
    }
    expect(s.sessionCount()).toBe(0); // each close sent DELETE
    const a = httpClient(s.url);
    const b = httpClient(s.url);
    await a.invoke(call);
    await b.invoke(call);
    await b.invoke(call);
    const c = httpClient(s.url);
    await c.invoke(call); // evicts a (least recently used)
    await expect(a.invoke(call)).rejects.toMatchObject({ kind: 'transport' });
    await expect(b.invoke(call)).resolves.toMatchObject({ valid: true });
  });
});
