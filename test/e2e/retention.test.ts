// Settings → retention in a real Chromium against web mode: an invalid value (-3) is rejected in the form
// instead of read as "no limit"; Save says how many executions the new policy deletes and asks first
// (Cancel keeps them all); confirming deletes exactly those and the page reports it. The history is five
// real executions in the SQLite file: failed initializes of a gateway whose backend port is closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable } from './harness';
import type { PageApi } from './support/page-api';
import { openConsole, type ConsoleSession } from './support/console-session';
import { connectHttpClient } from '../app/mcp-client';
// A port that was free a moment ago has no listener now: connects to it are refused.
import { freePort as closedPort } from '../gateway/helpers';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED retention browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('Settings → retention in Chromium (web mode)', () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  let api: PageApi;

  const recorded = async () => (await api<{ items: unknown[] }>('history.query', { limit: 100 })).items.length;

  beforeAll(async () => {
    session = await openConsole({ demo: false });
    ({ page, api } = session);
    const info = await api<{ listen: { url: string } }>('gateways.create', {
      id: 'history-source',
      start: true,
      config: {
        backend: { transport: 'http', name: 'gone', endpoint: `http://127.0.0.1:${await closedPort()}/mcp` },
        listen: { transport: 'http', host: '127.0.0.1', port: 0 },
      },
    });
    for (let i = 0; i < 5; i++)
      await connectHttpClient(info.listen.url).then(
        (c) => c.close(),
        () => undefined,
      );
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('rejects -3, says how many executions a new policy deletes, asks first, and reports what it deleted', { timeout: 120_000 }, async () => {
    await expect.poll(recorded, { timeout: 30_000 }).toBe(5);
    await page.evaluate(() => (location.hash = '#/settings'));
    const keep = page.getByLabel('Keep at most (executions)');
    const save = page.getByRole('button', { name: 'Save retention' });

    await keep.fill('-3');
    await page.getByRole('alert', { name: 'Retention errors' }).filter({ hasText: 'not a whole number of 1 or more' }).waitFor();
    expect(await save.isDisabled()).toBe(true);

    await keep.fill('2');
    await save.click();
    const dialog = page.getByRole('dialog', { name: 'Delete history now?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('deletes 3 of the 5 recorded executions');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await recorded()).toBe(5);
    expect((await api<{ retention: { maxExecutions: number | null } }>('settings.get')).retention.maxExecutions).toBeNull();

    await save.click();
    await dialog.getByRole('button', { name: 'Save and delete 3' }).click();
    await page.getByRole('status', { name: 'Retention result' }).filter({ hasText: 'Retention saved; deleted 3 executions.' }).waitFor({ timeout: 30_000 });
    expect(await recorded()).toBe(2);
    expect((await api<{ retention: { maxExecutions: number | null } }>('settings.get')).retention.maxExecutions).toBe(2);
  });
});
