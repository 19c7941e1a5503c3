// Web mode's token stays with the console's own origin (issue #16, item 1). Browsers do not scope cookies by
// port, so a token kept in a cookie reached every other server on 127.0.0.1 the user opened. Here a real
// Chromium opens the console's printed URL, then pages of another server on another 127.0.0.1 port (in the
// same tab and in a new one); that server records every request it gets and must see the token nowhere. A
// request the console page really made, replayed without its Authorization header, must be refused.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { chromiumAvailable, ensureRendererBuilt, launchChromium, startWebMode, type WebModeRun } from './harness';
import { pageApi } from './support/page-api';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

describe.skipIf(!haveChromium)('web-mode token isolation from other local servers', () => {
  let web: WebModeRun;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let foreign: Server;
  let foreignUrl: string;
  const seen: Seen[] = [];
  const apiRequests: Request[] = [];

  beforeAll(async () => {
    ensureRendererBuilt();
    web = await startWebMode({ demo: false });
    // Another program's web server on another loopback port: records everything, serves a page and an asset.
    foreign = createServer((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      if (req.url === '/asset.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end('window.assetLoaded = true;');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>other local app</title><script src="/asset.js"></script><img src="/pixel.png">');
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', () => resolve()));
    foreignUrl = `http://127.0.0.1:${(foreign.address() as { port: number }).port}/`;
    browser = await launchChromium();
    context = await browser.newContext();
    page = await context.newPage();
    page.on('request', (r) => {
      if (r.url().startsWith(`${web.url}api/`)) apiRequests.push(r);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => foreign?.close(resolve));
    await web?.stop();
  });

  it('opens the printed URL: the token leaves the address bar and lives in no cookie', async () => {
    expect(web.openUrl).toMatch(/\/#token=[\w-]+$/);
    await page.goto(web.openUrl);
    await page.getByRole('heading', { name: 'Gateways', level: 1 }).waitFor({ timeout: 60_000 });
    expect(page.url()).toBe(web.url);
    expect(await context.cookies()).toEqual([]);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    // The page made a real API call over HTTP (as the UI's helpers do), carrying the token as a header.
    expect(await pageApi(page)<{ mode: string }>('app.info')).toMatchObject({ mode: 'web' });
    expect(apiRequests.length).toBeGreaterThan(0);
    expect(await apiRequests[0]!.headerValue('authorization')).toBe(`Bearer ${web.token}`);
  });

  it('another 127.0.0.1 port, opened from the console tab and in a new tab, receives no token', async () => {
    // The console tab navigates away by script (a page-initiated navigation sends a Referer, if any).
    await page.evaluate((url) => location.assign(url), foreignUrl);
    await page.waitForURL(foreignUrl);
    await page.waitForFunction(() => (window as unknown as { assetLoaded?: boolean }).assetLoaded === true);
    const tab = await context.newPage();
    await tab.goto(`${foreignUrl}second`);
    await tab.waitForFunction(() => (window as unknown as { assetLoaded?: boolean }).assetLoaded === true);
    // Scripts of that origin cannot reach the console's token either.
    expect(await tab.evaluate(() => [document.cookie, sessionStorage.length, localStorage.length])).toEqual(['', 0, 0]);
    await tab.close();

    expect(seen.map((s) => s.url)).toEqual(expect.arrayContaining(['/', '/asset.js', '/second']));
    for (const s of seen) {
      expect(s.headers.cookie, `${s.method} ${s.url} carried a cookie`).toBeUndefined();
      expect(JSON.stringify(s), `${s.method} ${s.url} carried the token`).not.toContain(web.token);
      expect(s.headers.authorization).toBeUndefined();
    }
  });

  it('a request the console page made, replayed without its Authorization header, is refused', async () => {
    const original = apiRequests[0]!;
    const headers = await original.allHeaders();
    const replay = (h: Record<string, string>) => fetch(original.url(), { method: original.method(), headers: h, body: original.postData() ?? undefined });
    const withHeader = await replay(headers);
    expect(withHeader.status).toBe(200);
    const { authorization: _dropped, ...rest } = headers;
    const refused = await replay(rest);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ ok: false, error: { message: expect.stringContaining('Authorization: Bearer') } });
    // The same request with everything the foreign server saw (cookies, if any had been there) added: still refused.
    const foreignCookies = seen
      .map((s) => s.headers.cookie)
      .filter((c): c is string => !!c)
      .join('; ');
    expect((await replay({ ...rest, ...(foreignCookies ? { cookie: foreignCookies } : {}) })).status).toBe(401);
    // And the WebSocket the page opens: without the token subprotocol, the upgrade is refused.
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${web.url.replace('http', 'ws')}api/ws`, ['ic.v1'], { origin: web.url.replace(/\/$/, '') });
      ws.on('open', () => {
        ws.close();
        resolve(101);
      });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => resolve(-1));
    });
    expect(status).toBe(401);
  });

  it('a fresh tab without the fragment, or with a stale token, asks for the printed URL instead of working', async () => {
    const tab = await context.newPage();
    try {
      await tab.goto(web.url);
      await tab.getByRole('heading', { name: 'Token required' }).waitFor();
      await tab.getByText(/carries this run.s access token/).waitFor();
      // A token the server no longer accepts (web mode restarted with a new one): forgotten, and the page asks.
      await tab.evaluate(() => sessionStorage.setItem('ic-token', 'from-an-earlier-run'));
      await tab.reload();
      await tab.getByRole('heading', { name: 'Token required' }).waitFor({ timeout: 30_000 });
      expect(await tab.evaluate(() => sessionStorage.getItem('ic-token'))).toBeNull();
    } finally {
      await tab.close();
    }
  });
});
