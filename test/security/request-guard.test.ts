// One table of Host / Origin / token cases, run against the three real listeners that share the request
// guard (src/main/security/request-guard.ts): web mode's server, a gateway's HTTP listener and the
// interceptor host's HTTP server. Each case is a raw HTTP request (so Host and Origin can be anything) that
// must be accepted (the listener's real answer, 200) or refused with the same status everywhere.
import { connect } from 'node:net';
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer } from '../../src/main/web/server';
import { silentLogger } from '../../src/main/services/environment';
import { Gateway } from '../../src/main/gateway';
import { parseGatewayConfig } from '../../src/shared/config';
import { serveHostOverHttp } from '../../src/main/interceptors/host';
import { createSampleHost } from '../../src/main/interceptors/samples';
import { tempDir, testCore } from '../app/helpers';
import { rawBackend } from '../gateway/helpers';

interface Running {
  port: number;
  /** Path and body of a request the listener answers with 200 once the guard lets it through. */
  path: string;
  body: string;
  token: string;
  close(): Promise<void>;
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'guard-table', version: '1' } },
});
const EXTRA_HOST = 'proxy.example';
const EXTRA_ORIGIN = 'http://inspector.example:6274';

const listeners: Record<string, { configurable: boolean; start(): Promise<Running> }> = {
  'web mode': {
    configurable: false,
    async start() {
      const t = tempDir('ic-guard-web-');
      const renderer = join(t.dir, 'renderer');
      mkdirSync(renderer, { recursive: true });
      writeFileSync(join(renderer, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
      const core = testCore(join(t.dir, 'data'));
      await core.start({ demo: false });
      const server = await startWebServer({ core, rendererDir: renderer, logger: silentLogger });
      return {
        port: server.port,
        path: '/api/call/app.info',
        body: '{}',
        token: server.token,
        async close() {
          await server.close();
          await core.shutdown();
          t.cleanup();
        },
      };
    },
  },
  'gateway HTTP listener': {
    configurable: true,
    async start() {
      const parsed = parseGatewayConfig({
        backend: rawBackend(),
        listen: { transport: 'http', port: 0, tokens: { 'gw-token-alice': 'alice' }, allowedHosts: [EXTRA_HOST], allowedOrigins: [EXTRA_ORIGIN] },
      });
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
      const gateway = new Gateway(parsed.config);
      await gateway.start();
      return { port: Number(new URL(gateway.url!).port), path: '/mcp', body: INIT, token: 'gw-token-alice', close: () => gateway.stop() };
    },
  },
  'interceptor host HTTP server': {
    configurable: true,
    async start() {
      const serving = await serveHostOverHttp(createSampleHost({ log: () => undefined }), {
        token: 'host-token',
        allowedHostnames: [EXTRA_HOST],
        allowedOrigins: [EXTRA_ORIGIN],
      });
      return { port: serving.port, path: '/mcp', body: INIT, token: 'host-token', close: () => serving.close() };
    },
  },
};

interface Case {
  name: string;
  /** Request headers, given this listener's port and token; `host: null` sends no Host at all (HTTP/1.0). */
  headers(port: number, token: string): Record<string, string | null>;
  query?: (token: string) => string;
  expect: 200 | 401 | 403;
}

const bearer = (t: string) => `Bearer ${t}`;
const CASES: Case[] = [
  {
    name: 'token, Host 127.0.0.1:port, no Origin (CLI and MCP clients)',
    headers: (p, t) => ({ host: `127.0.0.1:${p}`, authorization: bearer(t) }),
    expect: 200,
  },
  { name: 'Host localhost:port', headers: (p, t) => ({ host: `localhost:${p}`, authorization: bearer(t) }), expect: 200 },
  { name: 'Host [::1]:port', headers: (p, t) => ({ host: `[::1]:${p}`, authorization: bearer(t) }), expect: 200 },
  { name: 'Host on another port (a forwarded port)', headers: (p, t) => ({ host: `127.0.0.1:${p + 1}`, authorization: bearer(t) }), expect: 200 },
  { name: 'Host without a port', headers: (_p, t) => ({ host: '127.0.0.1', authorization: bearer(t) }), expect: 200 },
  {
    name: 'Origin equal to its own origin',
    headers: (p, t) => ({ host: `127.0.0.1:${p}`, origin: `http://127.0.0.1:${p}`, authorization: bearer(t) }),
    expect: 200,
  },
  {
    name: 'Origin equal to a forwarded origin',
    headers: (_p, t) => ({ host: 'localhost:9000', origin: 'http://localhost:9000', authorization: bearer(t) }),
    expect: 200,
  },
  { name: 'lower-case bearer scheme', headers: (p, t) => ({ host: `127.0.0.1:${p}`, authorization: `bearer ${t}` }), expect: 200 },
  { name: 'foreign Host (DNS rebinding)', headers: (p, t) => ({ host: `evil.example:${p}`, authorization: bearer(t) }), expect: 403 },
  { name: 'Host that only starts with a loopback name', headers: (p, t) => ({ host: `127.0.0.1.nip.io:${p}`, authorization: bearer(t) }), expect: 403 },
  { name: 'no Host header', headers: (_p, t) => ({ host: null, authorization: bearer(t) }), expect: 403 },
  {
    name: 'Origin of another local port',
    headers: (p, t) => ({ host: `127.0.0.1:${p}`, origin: `http://127.0.0.1:${p + 1}`, authorization: bearer(t) }),
    expect: 403,
  },
  {
    name: 'Origin localhost while Host is 127.0.0.1 (another origin)',
    headers: (p, t) => ({ host: `127.0.0.1:${p}`, origin: `http://localhost:${p}`, authorization: bearer(t) }),
    expect: 403,
  },
  { name: 'foreign Origin', headers: (p, t) => ({ host: `127.0.0.1:${p}`, origin: 'http://evil.example', authorization: bearer(t) }), expect: 403 },
  { name: 'Origin null (sandboxed frame, file://)', headers: (p, t) => ({ host: `127.0.0.1:${p}`, origin: 'null', authorization: bearer(t) }), expect: 403 },
  {
    name: 'Origin with another scheme',
    headers: (p, t) => ({ host: `127.0.0.1:${p}`, origin: `https://127.0.0.1:${p}`, authorization: bearer(t) }),
    expect: 403,
  },
  { name: 'foreign Origin and no token: 403 first', headers: (p) => ({ host: `127.0.0.1:${p}`, origin: 'http://evil.example' }), expect: 403 },
  { name: 'no token', headers: (p) => ({ host: `127.0.0.1:${p}` }), expect: 401 },
  { name: 'wrong token', headers: (p) => ({ host: `127.0.0.1:${p}`, authorization: bearer('nope') }), expect: 401 },
  { name: 'token with a suffix', headers: (p, t) => ({ host: `127.0.0.1:${p}`, authorization: bearer(`${t}x`) }), expect: 401 },
  { name: 'prefix of the token', headers: (p, t) => ({ host: `127.0.0.1:${p}`, authorization: bearer(t.slice(0, -1)) }), expect: 401 },
  { name: 'token under another scheme', headers: (p, t) => ({ host: `127.0.0.1:${p}`, authorization: `Basic ${t}` }), expect: 401 },
  { name: 'token in a cookie', headers: (p, t) => ({ host: `127.0.0.1:${p}`, cookie: `token=${t}; ic_token=${t}` }), expect: 401 },
  { name: 'token in the query string', headers: (p) => ({ host: `127.0.0.1:${p}` }), query: (t) => `?token=${t}`, expect: 401 },
  {
    name: 'token as a WebSocket subprotocol on a plain request',
    headers: (p, t) => ({ host: `127.0.0.1:${p}`, 'sec-websocket-protocol': `bearer.${t}` }),
    expect: 401,
  },
];

/** The status of one raw request; without a Host header it is sent as HTTP/1.0 (1.1 requires one). */
function send(port: number, path: string, body: string, headers: Record<string, string | null>): Promise<number> {
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (headers.host === null) {
    const lines = Object.entries({ ...base, ...headers, 'content-length': String(Buffer.byteLength(body)) })
      .filter(([, v]) => v !== null)
      .map(([k, v]) => `${k}: ${v}`);
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(`POST ${path} HTTP/1.0\r\n${lines.join('\r\n')}\r\n\r\n${body}`));
      let text = '';
      socket.on('data', (d: Buffer) => {
        text += d.toString();
        const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
        if (m) {
          socket.destroy();
          resolve(Number(m[1]));
        }
      });
      socket.on('error', reject);
    });
  }
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: { ...base, ...(headers as Record<string, string>) } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe.each(Object.entries(listeners))('request guard: %s', (_name, listener) => {
  let running: Running;
  beforeAll(async () => {
    running = await listener.start();
  }, 60_000);
  afterAll(async () => {
    await running?.close();
  });

  it.each(CASES)('$name → $expect', async (c) => {
    const status = await send(running.port, `${running.path}${c.query?.(running.token) ?? ''}`, running.body, c.headers(running.port, running.token));
    expect(status).toBe(c.expect);
  });

  // Web mode has no such settings (it is reached through its printed URL only); the other two do.
  if (listener.configurable)
    it('accepts a configured host name and a configured origin, and no other', async () => {
      const ok = (h: Record<string, string>) => send(running.port, running.path, running.body, { authorization: bearer(running.token), ...h });
      expect(await ok({ host: `${EXTRA_HOST}:443` })).toBe(200);
      expect(await ok({ host: `127.0.0.1:${running.port}`, origin: EXTRA_ORIGIN })).toBe(200);
      expect(await ok({ host: `127.0.0.1:${running.port}`, origin: 'http://inspector.example:6275' })).toBe(403);
      expect(await ok({ host: `other.${EXTRA_HOST}` })).toBe(403);
    });
});
