// Web mode: the API (HTTP and WebSocket) needs the run's token, sent explicitly (bearer header or
// subprotocol), never taken from a cookie or the URL; the page and assets carry no secret and come without
// it. (The Host/Origin/token table shared with the other listeners is test/security/request-guard.test.ts.)
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { startWebServer, type WebServer } from '../../src/main/web/server';
import { silentLogger } from '../../src/main/services/environment';
import type { AppCore } from '../../src/main/services/app-core';
import { tempDir, testCore } from '../app/helpers';

let server: WebServer;
let core: AppCore;
let cleanup: () => void;
let markerDir: string;

beforeAll(async () => {
  const t = tempDir('ic-web-');
  cleanup = t.cleanup;
  markerDir = t.dir;
  const renderer = join(t.dir, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
  writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)');
  core = testCore(join(t.dir, 'data'));
  await core.start({ demo: false });
  server = await startWebServer({ core, rendererDir: renderer, logger: silentLogger });
});

afterAll(async () => {
  await server.close();
  await core.shutdown();
  cleanup();
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function http(path: string, o: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: o.method ?? 'GET', headers: o.headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

const api = (headers: Record<string, string>) =>
  http('/api/call/app.info', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });

const bearer = () => ({ authorization: `Bearer ${server.token}` });

describe('web mode over HTTP', () => {
  it('serves the API with the token as a bearer header, our Host and our Origin', async () => {
    const r = await api({ ...bearer(), origin: `http://127.0.0.1:${server.port}` });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ ok: true, value: { mode: 'test' } });
    const viaLocalhost = await api({ ...bearer(), host: `localhost:${server.port}`, origin: `http://localhost:${server.port}` });
    expect(viaLocalhost.status).toBe(200);
  });

  it('refuses an API call without a token, with a wrong one, or with it anywhere but the header', async () => {
    const none = await api({});
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ ok: false, error: { message: expect.stringContaining('Authorization: Bearer') } });
    expect((await api({ authorization: `Bearer ${server.token}x` })).status).toBe(401);
    expect((await api({ authorization: 'Bearer short' })).status).toBe(401);
    // The old places a token travelled: a cookie (sent to every port of the host) and the query string.
    expect((await api({ cookie: `ic_token_${server.port}=${server.token}; ic_token=${server.token}` })).status).toBe(401);
    expect((await http(`/api/call/app.info?token=${server.token}`, { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await api({ 'x-ic-token': server.token })).status).toBe(401);
  });

  it('runs a process-starting procedure only for the bearer of the token (the attack of issue #16)', async () => {
    const marker = join(markerDir, 'ran');
    const body = JSON.stringify({
      entry: { transport: 'stdio', name: 'x', command: process.execPath, arguments: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`] },
    });
    const call = (headers: Record<string, string>) =>
      http('/api/call/chain.testBackend', { method: 'POST', headers: { 'content-type': 'text/plain', ...headers }, body });
    // What a page on another local port could send: the old cookie, its own Origin, or no Origin at all.
    expect((await call({ cookie: `ic_token_${server.port}=${server.token}`, origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(403);
    expect((await call({ cookie: `ic_token_${server.port}=${server.token}` })).status).toBe(401);
    expect(existsSync(marker)).toBe(false);
    // With the token the same call does run the command: the refusals above were the guard, not the command.
    expect((await call(bearer())).status).toBe(200);
    await vi.waitFor(() => expect(existsSync(marker)).toBe(true), { timeout: 20_000 });
  });

  it('serves the page and its assets without the token, with no cookie and no secret in them', async () => {
    const page = await http('/');
    expect(page.status).toBe(200);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.body).not.toContain(server.token);
    expect(page.body).toMatch(/<meta name="csp-nonce" content="[\w+/=]+" \/>/);
    expect((await http('/assets/app.js')).body).toBe('console.log(1)');
    // A printed URL of an older build (token in the query) gets the page, and the token is not set anywhere.
    const legacy = await http(`/?token=${server.token}`);
    expect(legacy.status).toBe(200);
    expect(legacy.headers['set-cookie']).toBeUndefined();
  });

  it("sends the CSP as a header: no inline script, styles only by this response's nonce", async () => {
    const a = await http('/');
    const b = await http('/');
    const nonceA = /content="([^"]+)"/.exec(a.body.slice(a.body.indexOf('csp-nonce')))![1]!;
    const nonceB = /content="([^"]+)"/.exec(b.body.slice(b.body.indexOf('csp-nonce')))![1]!;
    expect(nonceA).not.toBe(nonceB);
    const csp = String(a.headers['content-security-policy']);
    expect(csp).toContain(`style-src 'self' 'nonce-${nonceA}'`);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("script-src 'self'");
    expect(csp).toMatch(/frame-ancestors 'none'/);
  });

  it('never serves files outside the renderer folder', async () => {
    const r = await http('/%2e%2e/%2e%2e/%2e%2e/etc/passwd.txt');
    expect(r.status).toBe(404);
    expect(r.body).not.toContain('root:');
  });

  it('answers malformed JSON and bad input with envelope errors', async () => {
    const bad = await http('/api/call/gateways.get', { method: 'POST', headers: bearer(), body: '{nope' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const invalid = await http('/api/call/gateways.get', { method: 'POST', headers: bearer(), body: '{"id": 5}' });
    expect(JSON.parse(invalid.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});

/** Opens the API socket as the page does: the token offered as the `bearer.` subprotocol (or not at all). */
function openWs(o: { token?: string; origin?: string; host?: string; query?: string }): Promise<{ ws?: WebSocket; status?: number }> {
  const protocols = o.token === undefined ? ['ic.v1'] : ['ic.v1', `bearer.${o.token}`];
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api/ws${o.query ?? ''}`, protocols, {
      ...(o.origin ? { origin: o.origin } : {}),
      ...(o.host ? { headers: { host: o.host } } : {}),
    });
    ws.on('open', () => resolve({ ws }));
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    ws.on('error', () => resolve({ status: -1 }));
  });
}

function nextMessage(ws: WebSocket, match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const on = (data: WebSocket.RawData) => {
      const m = JSON.parse(data.toString()) as Record<string, unknown>;
      if (match(m)) {
        ws.off('message', on);
        resolve(m);
      }
    };
    ws.on('message', on);
  });
}

describe('web mode over WebSocket', () => {
  it('refuses an upgrade without a token', async () => {
    expect((await openWs({})).status).toBe(401);
  });

  it('refuses an upgrade with a wrong token, or with the token in the query string', async () => {
    expect((await openWs({ token: 'wrong' })).status).toBe(401);
    expect((await openWs({ query: `?token=${server.token}` })).status).toBe(401);
  });

  it('refuses an upgrade from a foreign Origin (cross-site WebSocket hijacking)', async () => {
    expect((await openWs({ token: server.token, origin: 'http://evil.example' })).status).toBe(403);
  });

  it('refuses an upgrade for a foreign Host (DNS rebinding)', async () => {
    expect((await openWs({ token: server.token, host: `evil.example:${server.port}` })).status).toBe(403);
  });

  it('carries calls and pushed events with the token and our Origin', async () => {
    const { ws, status } = await openWs({ token: server.token, origin: `http://127.0.0.1:${server.port}` });
    expect(status).toBeUndefined();
    // The answer names the plain subprotocol, never the one that carries the token.
    expect(ws!.protocol).toBe('ic.v1');
    try {
      const reply = nextMessage(ws!, (m) => m.id === 1);
      ws!.send(JSON.stringify({ id: 1, procedure: 'app.info', input: {} }));
      expect(await reply).toMatchObject({ id: 1, result: { ok: true, value: { mode: 'test' } } });

      const garbage = nextMessage(ws!, (m) => m.id === null);
      ws!.send('{not json');
      expect(await garbage).toMatchObject({ result: { ok: false, error: { code: 'invalid_input' } } });

      const event = nextMessage(ws!, (m) => m.event !== undefined);
      ws!.send(JSON.stringify({ id: 2, procedure: 'settings.update', input: { theme: 'dark' } }));
      expect(await event).toEqual({ event: { type: 'tables.changed', tables: ['settings'] } });
    } finally {
      ws!.close();
    }
  });
});
