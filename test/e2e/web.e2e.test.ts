// The console in a real Chromium against web mode on a temporary data folder: the app loads, the demo
// gateway starts, a tool call sent through it by a real MCP client shows up in its counters (pushed,
// no reload), and the Gateways page's dialogs and the theme setting work.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, ensureRendererBuilt, launchChromium, root, startWebMode, type WebModeRun } from './harness';
import { connectHttpClient, firstToken } from '../app/mcp-client';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('console in Chromium (web mode)', () => {
  let web: WebModeRun;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ensureRendererBuilt();
    web = await startWebMode();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(web.openUrl);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
  });

  it('loads the app with its rail and the Gateways page', async () => {
    console.log(`web mode printed its URL ${web.readyMs} ms after spawn (target < 3000 ms)`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    // The rail is rendered once the app has loaded: wait for it, then each link is there exactly once.
    await nav.waitFor();
    for (const name of ['Gateways', 'Chain', 'Playground', 'Traffic', 'Sinks', 'Settings']) {
      expect(await nav.getByRole('link', { name, exact: true }).count(), name).toBe(1);
    }
    await page.getByRole('heading', { name: 'Gateways', level: 1 }).waitFor();
    expect(page.url()).not.toContain('token=');
  });

  // Long waits: the suite shares two cores with many child processes; what is tested is the state reached.
  it('starts the demo gateway with its interceptor server connected', { timeout: 120_000 }, async () => {
    const card = page.getByRole('article', { name: 'Demo gateway' });
    await card.getByRole('status').filter({ hasText: 'Running' }).first().waitFor({ timeout: 90_000 });
    await card.getByRole('list', { name: 'Interceptor servers' }).getByText('Connected').waitFor({ timeout: 90_000 });
    await card.getByText(/\d+ interceptors/).waitFor();
  });

  it('counts a tool call sent through the demo gateway by a real MCP client', { timeout: 120_000 }, async () => {
    const card = page.getByRole('article', { name: 'Demo gateway' });
    const calls = card.getByLabel('Counters').getByLabel('Calls');
    await expect.poll(() => calls.textContent(), { timeout: 30_000 }).toBe('0');

    const config = JSON.parse(readFileSync(join(web.dataDir, 'gateways', 'demo.json'), 'utf8')) as Record<string, unknown>;
    const url = `http://127.0.0.1:${(config.listen as { port: number }).port}/mcp`;
    const client = await connectHttpClient(url, firstToken(config));
    try {
      const ok = await client.callTool({ name: 'echo', arguments: { message: 'mail alice@example.com' } });
      expect(JSON.stringify(ok)).toContain('[EMAIL_REDACTED]');
      const blocked = await client.callTool({ name: 'echo', arguments: { message: 'ssn 123-45-6789' } });
      expect(blocked.isError).toBe(true);
    } finally {
      await client.close();
    }
    // Pushed "executions.new" / "tables changed" events refresh the card: no reload.
    await expect.poll(async () => Number(await calls.textContent()), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
    await expect.poll(async () => Number(await card.getByLabel('Counters').getByLabel('Blocked').textContent()), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(async () => Number(await card.getByLabel('Counters').getByLabel('Mutated').textContent()), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(async () => card.getByRole('img', { name: 'p50 latency over time' }).locator('rect').count(), { timeout: 10_000 }).toBeGreaterThan(0);
  });

  it('shows "Connect a client" snippets for Claude Desktop, Cursor and VS Code', async () => {
    const card = page.getByRole('article', { name: 'Demo gateway' });
    await card.getByRole('button', { name: 'Connect a client' }).click();
    const dialog = page.getByRole('dialog', { name: /Connect a client/ });
    await dialog.getByLabel('Claude Desktop stdio snippet', { exact: true }).waitFor();
    expect(await dialog.getByLabel('Claude Desktop stdio snippet', { exact: true }).textContent()).toContain('"gateway"');
    expect(await dialog.getByLabel('Claude Desktop HTTP snippet', { exact: true }).textContent()).toContain('mcp-remote');
    await dialog.getByRole('tab', { name: 'Cursor' }).click();
    expect(await dialog.getByLabel('Cursor HTTP snippet', { exact: true }).textContent()).toMatch(/"url": "http:\/\/127\.0\.0\.1:\d+\/mcp"/);
    await dialog.getByRole('tab', { name: 'VS Code' }).click();
    expect(await dialog.getByLabel('VS Code stdio snippet', { exact: true }).textContent()).toContain('"type": "stdio"');
    await dialog.getByRole('button', { name: 'Done' }).click();
  });

  it('creates a gateway from an example config', async () => {
    await page.getByRole('button', { name: 'New from example…' }).click();
    const dialog = page.getByRole('dialog', { name: 'New gateway from an example' });
    await dialog.getByRole('radio', { name: /http-listener/ }).check();
    await dialog.getByLabel('Id (optional)').fill('from-example');
    await dialog.getByLabel('Start it now').uncheck();
    await dialog.getByRole('button', { name: 'Create gateway' }).click();
    await page.getByRole('article', { name: 'everything-via-gateway' }).getByRole('status').first().filter({ hasText: 'Stopped' }).waitFor();
  });

  it('shows an interceptor that needs a config nobody set as a configuration error on the gateway card', { timeout: 120_000 }, async () => {
    const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
    const config = {
      serverInfo: { name: 'allowlist-unconfigured', version: '1.0.0' },
      backend: { transport: 'stdio', name: 'everything', command: process.execPath, arguments: [everything, 'stdio'] },
      staticInterceptors: [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [join(root, 'out/cli/index.js'), 'serve-samples'] }],
      listen: { transport: 'http', port: 0 },
    };
    await page.getByRole('button', { name: 'New from example…' }).click();
    const dialog = page.getByRole('dialog', { name: 'New gateway from an example' });
    await dialog.getByLabel(/^Config/).fill(JSON.stringify(config));
    await dialog.getByLabel('Id (optional)').fill('unconfigured');
    await dialog.getByLabel('Start it now').check();
    await dialog.getByRole('button', { name: 'Create gateway' }).click();
    const error = page.getByRole('article', { name: 'allowlist-unconfigured' }).getByTestId('server-config-error-samples');
    await error.waitFor({ timeout: 90_000 });
    expect(await error.textContent()).toMatch(/^config error: samples\/tool-allowlist: no config is set .*config\.allow is required.*skipped/);
  });

  it('shows config errors from the gateway schema in the dialog', async () => {
    await page.getByRole('button', { name: 'New from example…' }).click();
    const dialog = page.getByRole('dialog', { name: 'New gateway from an example' });
    await dialog.getByLabel(/^Config/).fill('{"backend": {"transport": "stdio", "name": "x"}}');
    await dialog.getByRole('button', { name: 'Create gateway' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'backend.command' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('imports servers from a Claude Desktop config', async () => {
    await page.getByRole('button', { name: 'Import servers…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import servers from a client config' });
    await dialog.getByLabel('Config text').fill(JSON.stringify({ mcpServers: { 'my-files': { command: 'node', args: ['files.js'] } } }));
    await dialog.getByRole('checkbox', { name: /my-files/ }).waitFor();
    await dialog.getByRole('button', { name: 'Create 1 gateway' }).click();
    // The result: each gateway with its state (node exists here, so it was started), and the config to paste back.
    const done = page.getByRole('dialog', { name: 'Servers imported' });
    const pasteBack = done.getByLabel('Client config to paste back', { exact: true });
    await pasteBack.waitFor({ timeout: 20_000 });
    expect(JSON.parse((await pasteBack.textContent())!)).toMatchObject({ mcpServers: { 'my-files': { args: expect.arrayContaining(['--listen', 'stdio']) } } });
    expect(await done.getByRole('region', { name: 'Imported gateways' }).textContent()).toContain('my-files');
    await done.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('article', { name: 'my-files' }).waitFor();
  });

  it('switches to the dark theme in Settings and keeps it after a reload', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('radio', { name: 'Dark' }).check();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme), { timeout: 10_000 }).toBe('dark');
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByRole('radio', { name: 'Light' }).check();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme), { timeout: 10_000 }).toBe('light');
  });

  it('leaves placeholder pages for the screens of later releases', async () => {
    for (const name of ['Chain', 'Playground', 'Traffic', 'Sinks']) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
      await page.getByRole('heading', { name, level: 1 }).waitFor();
    }
  });

  // A new user walking the rail met the Tests screen's empty state (no test case yet) spread over the whole
  // window, rail included: the next click on the rail hit that text, not the link. So on every screen, in the
  // state a new console shows it, each rail link must be what is under its own centre, and a real click on
  // it must go there.
  it('keeps every rail link clickable on every screen', { timeout: 120_000 }, async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    const names = (await nav.getByRole('link').allTextContents()).map((n) => n.trim());
    expect(names).toContain('Tests');
    const covered = () =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLAnchorElement>('nav[aria-label="Main"] a')]
          .filter((a) => {
            const r = a.getBoundingClientRect();
            return !a.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
          })
          .map((a) => a.textContent?.trim()),
      );
    for (const name of [...names, names[0]!]) {
      await nav.getByRole('link', { name, exact: true }).click({ timeout: 5_000 });
      await expect.poll(() => nav.locator('a[aria-current="page"]').textContent()).toContain(name);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      if (name === 'Tests') await page.getByText('No test cases for this gateway yet', { exact: false }).waitFor({ timeout: 10_000 });
      expect(await covered(), `rail links covered on ${name}`).toEqual([]);
    }
  });

  it('the page cannot reach Node', async () => {
    const globals = await page.evaluate(() => ({
      require: typeof (globalThis as Record<string, unknown>).require,
      process: typeof (globalThis as Record<string, unknown>).process,
    }));
    expect(globals).toEqual({ require: 'undefined', process: 'undefined' });
  });

  it('refuses a browser without the token, and a foreign page calling the API', async () => {
    const other = await browser.newPage();
    try {
      // Without the fragment the page holds no token: it says where to get one and calls nothing.
      await other.goto(web.url);
      await other.getByText(/carries this run.s access token/).waitFor();

      // A page on another local origin that somehow knows the token still cannot call the API.
      const evil: Server = createServer((_req, res) => res.end('<!doctype html><title>evil</title>'));
      await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', () => resolve()));
      try {
        const port = (evil.address() as { port: number }).port;
        await other.goto(`http://127.0.0.1:${port}/`);
        const outcome = await other.evaluate(
          async ({ base, token }) => {
            const viaFetch = await fetch(`${base}api/call/app.info`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' }).then(
              (res) => `status ${res.status}`,
              () => 'blocked',
            );
            const viaWs = await new Promise<string>((resolve) => {
              const ws = new WebSocket(`${base.replace('http', 'ws')}api/ws`, ['ic.v1', `bearer.${token}`]);
              ws.onopen = () => resolve('open');
              ws.onerror = () => resolve('refused');
            });
            return { viaFetch, viaWs };
          },
          { base: web.url, token: web.token },
        );
        expect(outcome.viaFetch).not.toBe('status 200');
        expect(outcome.viaWs).toBe('refused');
      } finally {
        evil.close();
      }
    } finally {
      await other.close();
    }
  });

  // The header CSP has no 'unsafe-inline' and no 'unsafe-eval': every screen, the canvas (React Flow) and the
  // editors (CodeMirror, which gets the page's nonce) must work without the browser refusing anything.
  it('runs every screen under the strict CSP without a single violation', { timeout: 120_000 }, async () => {
    const strict = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await strict.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { __csp: string[] }).__csp = seen;
        document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
      });
      await strict.goto(`${web.openUrl}#/chain/demo`);
      await strict.locator('.react-flow__node').first().waitFor({ timeout: 60_000 });
      await strict.getByRole('tab', { name: 'JSON', exact: true }).click();
      await strict.locator('.cm-editor').first().waitFor();
      // CodeMirror's own stylesheet applied (its base theme makes the editor a flex box).
      expect(
        await strict
          .locator('.cm-editor')
          .first()
          .evaluate((e) => getComputedStyle(e).display),
      ).toBe('flex');
      for (const route of ['#/playground', '#/traffic', '#/sinks', '#/settings', '#/gateways']) {
        await strict.evaluate((r) => (location.hash = r), route);
        await strict.getByRole('heading', { level: 1 }).first().waitFor();
      }
      expect(await strict.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});
