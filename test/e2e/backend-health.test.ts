// A gateway whose backend cannot be reached, in a real Chromium against web mode: its card says so
// (backend failing, the error, since when) instead of a bare "Running", the failed connects are counted as
// errors, and each is recorded as an execution with outcome error that Traffic shows. The backend is an
// HTTP endpoint on a loopback port nobody listens on; the client is a real MCP client (SDK v2, HTTP).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable } from './harness';
import type { PageApi } from './support/page-api';
import { openConsole, type ConsoleSession } from './support/console-session';
import { connectHttpClient } from '../app/mcp-client';
// A port that was free a moment ago has no listener now: connects to it are refused.
import { freePort as closedPort } from '../gateway/helpers';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED backend health browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('A gateway whose backend is unreachable, in Chromium (web mode)', () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  let api: PageApi;

  beforeAll(async () => {
    session = await openConsole({ demo: false });
    ({ page, api } = session);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  let attempt = 0;
  it('shows the backend failing on the card, counts the failed connects as errors and records them for Traffic', { timeout: 120_000 }, async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}/mcp`;
    // A fresh id per attempt: a retry runs against the same web mode, where the first attempt's gateway exists.
    const id = `unreachable-${attempt++}`;
    const info = await api<{ listen: { url: string } }>('gateways.create', {
      id,
      start: true,
      config: {
        serverInfo: { name: `Unreachable backend ${id}`, version: '1.0.0' },
        backend: { transport: 'http', name: 'gone', endpoint },
        listen: { transport: 'http', host: '127.0.0.1', port: 0 },
      },
    });
    const card = page.getByRole('article', { name: `Unreachable backend ${id}` });
    await card.getByRole('status').filter({ hasText: 'Running' }).first().waitFor({ timeout: 30_000 });
    await card.getByRole('note', { name: 'Backend health' }).filter({ hasText: 'not connected yet' }).waitFor({ timeout: 30_000 });

    // Two clients try; each initialize fails at the backend.
    for (let i = 0; i < 2; i++) await expect(connectHttpClient(info.listen.url)).rejects.toThrow();

    // The card updates from pushed events: wait for the second attempt to reach it, then read it once.
    const health = card.getByRole('alert', { name: 'Backend health' }).filter({ hasText: '(2 failed attempts)' });
    await health.waitFor({ timeout: 30_000 });
    const text = (await health.textContent())!;
    expect(text).toMatch(/^Backend unreachable since \d/);
    expect(text).toMatch(/fetch failed|ECONNREFUSED|refused/i);
    await card.getByText('backend failing').waitFor();
    await expect.poll(async () => Number(await card.getByLabel('Counters').getByLabel('Errors').textContent()), { timeout: 30_000 }).toBe(2);

    await page.evaluate(() => (location.hash = '#/traffic'));
    const rows = page.getByRole('table', { name: 'Executions' }).locator('.trow[data-id]');
    await page.getByRole('table', { name: 'Executions' }).waitFor({ timeout: 30_000 });
    const mine = rows.filter({ has: page.locator('.c-gateway', { hasText: new RegExp(`^${id}$`) }) });
    await expect.poll(() => mine.count(), { timeout: 30_000 }).toBe(2);
    expect(await mine.locator('.c-outcome').allTextContents()).toEqual(['error', 'error']);
  });
});
