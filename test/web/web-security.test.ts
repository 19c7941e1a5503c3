// Web mode refuses every request without the run's token, from a foreign Origin, or for a foreign
// Host (DNS rebinding), over HTTP and WebSocket alike; with all three right, it serves the API.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebServer, type WebServer } from '../../src/main/web/server';
import { silentLogger } from '../../src/main/services/environment';
import type { AppCore } from '../../src/main/services/app-core';
import { tempDir, testCore } from '../app/helpers';

let server: WebServer;
let core: AppCore;
let cleanup: () => void;

beforeAll(async () => {
  const t = tempDir('ic-web-');
  cleanup = t.cleanup;
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

function cookieFor(): string {
  return `ic_token_${server.port}=${server.token}`;
}

describe('web mode over HTTP', () => {
  it('serves the API with the token, our Host and our Origin', async () => {
    const r = await api({ 'x-ic-token': server.token, origin: `http://127.0.0.1:${server.port}` });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ ok: true, value: { mode: 'test' } });
    const viaLocalhost = await api({ 'x-ic-token': server.token, host: `localhost:${server.port}`, origin: `http://localhost:${server.port}` });
    expect(viaLocalhost.status).toBe(200);
  });

  it('refuses an API call without a token', async () => {
    const r = await api({});
    expect(r.status).toBe(401);
    expect(JSON.parse(r.body).ok).toBe(false);
  });

  it('refuses an API call with a wrong token', async () => {
    expect((await api({ 'x-ic-token': `${server.token}x` })).status).toBe(401);
    expect((await api({ 'x-ic-token': 'short' })).status).toBe(401);
  });

  it('refuses an API call carrying only the page cookie (no ambient authority)', async () => {
    expect((await api({ cookie: cookieFor() })).status).toBe(401);
  });

  it('refuses a foreign Origin even with the right token', async () => {
    const r = await api({ 'x-ic-token': server.token, origin: 'http://evil.example' });
    expect(r.status).toBe(403);
    expect(r.body).toMatch(/foreign Origin/);
    expect((await api({ 'x-ic-token': server.token, origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(403);
  });

  it('refuses a foreign Host even with the right token (DNS rebinding)', async () => {
    const r = await api({ 'x-ic-token': server.token, host: `evil.example:${server.port}` });
    expect(r.status).toBe(403);
    expect(r.body).toMatch(/foreign Host/);
    expect((await http(`/?token=${server.token}`, { headers: { host: 'rebind.example' } })).status).toBe(403);
  });

  it('refuses the page and its assets without the token', async () => {
    expect((await http('/')).status).toBe(401);
    expect((await http('/assets/app.js')).status).toBe(401);
    expect((await http('/?token=wrong')).status).toBe(401);
    expect((await http('/assets/app.js', { headers: { cookie: `ic_token_${server.port}=wrong` } })).status).toBe(401);
  });

  it('trades the URL token for a strict cookie and embeds the token in the page', async () => {
    const first = await http(`/?token=${server.token}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    expect(String(first.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    const page = await http('/', { headers: { cookie: cookieFor() } });
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<meta name="ic-token" content="${server.token}" />`);
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect((await http('/assets/app.js', { headers: { cookie: cookieFor() } })).body).toBe('console.log(1)');
  });

  it('never serves files outside the renderer folder', async () => {
    const r = await http('/%2e%2e/%2e%2e/%2e%2e/etc/passwd.txt', { headers: { cookie: cookieFor() } });
    expect(r.status).toBe(404);
    expect(r.body).not.toContain('root:');
  });

  it('answers malformed JSON and bad input with envelope errors', async () => {
    const bad = await http('/api/call/gateways.get', { method: 'POST', headers: { 'x-ic-token': server.token }, body: '{nope' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const invalid = await http('/api/call/gateways.get', { method: 'POST', headers: { 'x-ic-token': server.token }, body: '{"id": 5}' });
    expect(JSON.parse(invalid.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});

function openWs(o: { token?: string; origin?: string; host?: string }): Promise<{ ws?: WebSocket; status?: number }> {
  const query = o.token === undefined ? '' : `?token=${encodeURIComponent(o.token)}`;
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api/ws${query}`, {
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

  it('refuses an upgrade with a wrong token', async () => {
    expect((await openWs({ token: 'wrong' })).status).toBe(401);
  });

  it('refuses an upgrade from a foreign Origin (cross-site WebSocket hijacking)', async () => {
    expect((await openWs({ token: server.token, origin: 'http://evil.example' })).status).toBe(403);
  });

  it('refuses an upgrade for a foreign Host (DNS rebinding)', async () => {
    expect((await openWs({ token: server.token, host: `evil.example:${server.port}` })).status).toBe(403);
  });

  it('carries calls and pushed events with the token and our Origin', async () => {
    const { ws } = await openWs({ token: server.token, origin: `http://127.0.0.1:${server.port}` });
    expect(ws).toBeDefined();
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
