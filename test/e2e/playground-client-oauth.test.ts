// OAuth of the Playground's Client, in a real Chromium against web mode: connecting to a URL whose server
// answers 401 with MCP authorization (test/playground/fixtures/oauth-protected-server.mjs) shows
// "Authorize in your browser" with the authorization link and opens it (window.open in web mode); the
// opened page is the authorization server's consent page, whose Allow sends the browser back to the
// console's loopback callback, and the connection completes with the server's tools listed. The consent
// page waits for Allow (fixture's --consent) as a user would: when it approved at once, the whole flow
// could finish and remove the prompt between two of Playwright's polls on a loaded machine, so the
// prompt was never seen (the cause of this test's earlier CI failures).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromiumAvailable, root } from './harness';
import { openConsole, type ConsoleSession } from './support/console-session';
import { openClientTab, pressConnect } from './support/client-tab';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED client OAuth browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('Playground Client: OAuth authorization in the browser (Chromium, web mode)', { timeout: 90_000 }, () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  let server: ChildProcess | undefined;
  let url = '';

  beforeAll(async () => {
    server = spawn(process.execPath, [join(root, 'test/playground/fixtures/oauth-protected-server.mjs'), '--consent'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
    url = line.replace(/^listening /, '');
    session = await openConsole({ demoTimeoutMs: 90_000, viewport: { width: 1400, height: 900 } });
    ({ page } = session);
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    server?.kill();
  });

  it('shows the authorization link, opens it, and connects once the browser comes back', async () => {
    // vitest keeps no trace of a failed attempt: the step it stopped at goes to stderr (kept in the CI
    // log) before the failure is rethrown.
    let step = 'open the Client tab';
    try {
      await openClientTab(page);
      const popup = page.context().waitForEvent('page', { timeout: 30_000 });
      step = 'press Connect';
      await pressConnect(page, { kind: 'http', url });

      step = 'wait for "Authorize in your browser"';
      const prompt = page.getByRole('region', { name: 'Authorize in your browser' });
      await prompt.waitFor({ timeout: 30_000 });
      const href = await prompt.getByRole('link', { name: 'Authorization link' }).getAttribute('href');
      expect(new URL(href!).origin).toBe(new URL(url).origin);
      expect(new URL(href!).pathname).toBe('/authorize');

      // The page opened on its own, on the authorization server's consent page; Allow redirects to the loopback callback.
      step = 'wait for the opened page';
      const opened = await popup;
      step = `press Allow on the consent page (at ${opened.url()})`;
      await opened.getByRole('button', { name: 'Allow' }).click({ timeout: 30_000 });
      step = `wait for the opened page to reach the loopback callback (at ${opened.url()})`;
      await opened.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback\?/, { timeout: 30_000 });
      expect(await opened.getByRole('heading').textContent()).toBe('Authorized');

      step = 'wait for the session to connect';
      await expect.poll(() => page.getByRole('status', { name: 'Client session' }).textContent(), { timeout: 30_000 }).toContain('oauth-protected-server');
      step = 'wait for the prompt to go';
      await prompt.waitFor({ state: 'detached', timeout: 30_000 });
      step = 'call whoami';
      await page.getByRole('button', { name: 'Tools: whoami' }).click();
      await page.getByRole('button', { name: 'Call tool' }).click();
      await expect.poll(() => page.getByRole('region', { name: 'Call' }).textContent(), { timeout: 15_000 }).toMatch(/client [0-9a-f-]{36}/);
    } catch (err) {
      // What the page showed then tells a flow that never started from one that finished unseen.
      const status = await page
        .getByRole('status', { name: 'Client session' })
        .textContent({ timeout: 1_000 })
        .catch(() => '(no session status)');
      const pages = page
        .context()
        .pages()
        .map((p) => p.url());
      console.error(
        `playground-client-oauth: the attempt stopped at "${step}": ${(err as Error).message.split('\n')[0]}; session status: ${status}; pages: ${pages.join(', ')}`,
      );
      throw err;
    }
  });
});
