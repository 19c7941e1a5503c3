// The HTTP listener's guards and plumbing: bearer tokens (401), Host/Origin (403, DNS-rebinding protection),
// unknown sessions (404), malformed and oversized bodies, one backend per session, chained gateways, and
// Streamable HTTP / SSE backends (server-everything in its HTTP modes).
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../../src/shared/config';
import { Gateway } from '../../src/main/gateway';
import { everythingBin, freePort, rawBackend, waitFor } from './helpers';

function gatewayFor(input: Record<string, unknown>): Gateway {
  const parsed = parseGatewayConfig(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return new Gateway(parsed.config);
}

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};

/** A raw HTTP POST, so that headers (Host, Origin) can be anything. */
function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (data += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function connect(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {}));
  return client;
}

describe('HTTP listener guards', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = gatewayFor({
      backend: rawBackend(),
      listen: { transport: 'http', port: 0, tokens: { 'tok-a': 'alice', 'tok-b': 'bob' } },
      maxMessageBytes: 32 * 1024,
    });
    await gateway.start();
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('binds to 127.0.0.1 by default', () => {
    expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('refuses a request without a token, or with an unknown one (401)', async () => {
    const none = await post(gateway.url!, JSON.stringify(INIT));
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(JSON.parse(none.body).message).toContain('Authorization: Bearer');
    const wrong = await post(gateway.url!, JSON.stringify(INIT), { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
  });

  it('refuses a foreign Host or Origin (403) and accepts local ones', async () => {
    const port = new URL(gateway.url!).port;
    const host = await post(gateway.url!, JSON.stringify(INIT), { authorization: 'Bearer tok-a', host: `evil.example:${port}` });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body).message).toContain('DNS-rebinding');
    const origin = await post(gateway.url!, JSON.stringify(INIT), { authorization: 'Bearer tok-a', origin: 'http://evil.example' });
    expect(origin.status).toBe(403);
    const local = await post(gateway.url!, JSON.stringify(INIT), {
      authorization: 'Bearer tok-a',
      origin: `http://localhost:${port}`,
      host: `localhost:${port}`,
    });
    expect(local.status).toBe(200);
  });

  it('answers 404 for other paths and for unknown sessions', async () => {
    const other = await post(gateway.url!.replace('/mcp', '/other'), '{}', { authorization: 'Bearer tok-a' });
    expect(other.status).toBe(404);
    const unknown = await post(gateway.url!, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }), {
      authorization: 'Bearer tok-a',
      'mcp-session-id': 'nope',
    });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.message).toContain('Session not found');
  });

  it("keeps one backend per session, refuses another principal's session, survives malformed and oversized bodies", async () => {
    const a = await connect(gateway.url!, 'tok-a');
    const b = await connect(gateway.url!, 'tok-b');
    try {
      const pidA = ((await a.callTool({ name: 'echo', arguments: {} })) as unknown as { pid: number }).pid;
      const pidB = ((await b.callTool({ name: 'echo', arguments: {} })) as unknown as { pid: number }).pid;
      expect(pidA).not.toBe(pidB);
      const sessionA = (a.transport as StreamableHTTPClientTransport).sessionId!;
      const stolen = await post(gateway.url!, JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }), {
        authorization: 'Bearer tok-b',
        'mcp-session-id': sessionA,
        'mcp-protocol-version': '2025-11-25',
      });
      expect(stolen.status).toBe(403);
      const headers = { authorization: 'Bearer tok-a', 'mcp-session-id': sessionA, 'mcp-protocol-version': '2025-11-25' };
      const malformed = await post(gateway.url!, '{"jsonrpc":"2.0","id":3,', headers);
      expect(malformed.status).toBe(400);
      expect(JSON.parse(malformed.body).error.code).toBe(-32700);
      const oversized = await post(gateway.url!, JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping', params: { pad: 'x'.repeat(40 * 1024) } }), headers);
      expect(oversized.status).toBe(413);
      expect(await a.ping()).toEqual({});
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('HTTP backends and chained gateways', { timeout: 90_000 }, () => {
  const children: ChildProcess[] = [];
  const gateways: Gateway[] = [];
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop()));
    for (const c of children) c.kill('SIGKILL');
  });

  async function everythingOver(mode: 'sse' | 'streamableHttp', fixedPort?: number): Promise<number> {
    const port = fixedPort ?? (await freePort());
    const child = spawn(process.execPath, [everythingBin, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    await waitFor(() => /listening on port|running on port/i.test(stderr), 15_000, `server-everything ${mode}: ${stderr}`);
    return port;
  }

  it('fronts a Streamable HTTP backend, and a gateway can front another gateway', async () => {
    const port = await everythingOver('streamableHttp');
    const inner = gatewayFor({
      backend: { transport: 'http', name: 'everything-http', endpoint: `http://127.0.0.1:${port}/mcp` },
      listen: { transport: 'http', port: 0 },
    });
    gateways.push(inner);
    await inner.start();
    const outer = gatewayFor({
      backend: { transport: 'http', name: 'inner-gateway', endpoint: inner.url! },
      listen: { transport: 'http', port: 0 },
      serverInfo: { name: 'outer', version: '2' },
    });
    gateways.push(outer);
    await outer.start();
    const client = await connect(outer.url!);
    try {
      expect(client.getServerVersion()?.name).toBe('outer');
      const result = await client.callTool({ name: 'echo', arguments: { message: 'two hops' } });
      expect((result.content as { text: string }[])[0]!.text).toBe('Echo: two hops');
      expect(inner.counters().calls).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('keeps unknown result fields across two HTTP hops', async () => {
    const inner = gatewayFor({ backend: rawBackend('raw-inner'), listen: { transport: 'http', port: 0 } });
    gateways.push(inner);
    await inner.start();
    const outer = gatewayFor({ backend: { transport: 'http', name: 'inner', endpoint: inner.url! }, listen: { transport: 'http', port: 0 } });
    gateways.push(outer);
    await outer.start();
    const client = await connect(outer.url!);
    try {
      const result = (await client.callTool({ name: 'echo', arguments: { a: 1 } })) as Record<string, unknown>;
      expect(result.extraResultField).toEqual({ nested: true });
      expect(result._meta).toEqual({ 'vendor/x': 1 });
    } finally {
      await client.close();
    }
  });

  it('errors when a Streamable HTTP backend goes away, and reconnects once it is back', async () => {
    const port = await everythingOver('streamableHttp');
    const gateway = gatewayFor({
      backend: { transport: 'http', name: 'flaky', endpoint: `http://127.0.0.1:${port}/mcp` },
      listen: { transport: 'http', port: 0 },
    });
    gateways.push(gateway);
    await gateway.start();
    const client = await connect(gateway.url!);
    try {
      expect((await client.callTool({ name: 'echo', arguments: { message: 'one' } })).content).toEqual([{ type: 'text', text: 'Echo: one' }]);
      // A call in flight when the backend dies gets an error, not a hang.
      let progressed = false;
      const inFlight = client.callTool(
        { name: 'trigger-long-running-operation', arguments: { duration: 5, steps: 5 } },
        {
          onprogress: () => (progressed = true),
        },
      );
      await waitFor(() => progressed, 10_000, 'the long call to reach the backend');
      const backend = children.pop()!;
      backend.kill('SIGKILL');
      await waitFor(() => backend.exitCode !== null || backend.signalCode !== null, 5000, 'backend gone');
      await expect(inFlight).rejects.toThrow(/ended without an answer|failed/);
      await expect(client.callTool({ name: 'echo', arguments: { message: 'two' } })).rejects.toThrow(/backend "flaky".*failed/);
      await everythingOver('streamableHttp', port);
      expect((await client.callTool({ name: 'echo', arguments: { message: 'three' } })).content).toEqual([{ type: 'text', text: 'Echo: three' }]);
    } finally {
      await client.close();
    }
  });

  it('fronts an SSE backend', async () => {
    const port = await everythingOver('sse');
    const gateway = gatewayFor({
      backend: { transport: 'sse', name: 'everything-sse', endpoint: `http://127.0.0.1:${port}/sse` },
      listen: { transport: 'http', port: 0 },
    });
    gateways.push(gateway);
    await gateway.start();
    const client = await connect(gateway.url!);
    try {
      const result = await client.callTool({ name: 'echo', arguments: { message: 'over sse' } });
      expect((result.content as { text: string }[])[0]!.text).toBe('Echo: over sse');
    } finally {
      await client.close();
    }
  });
});
