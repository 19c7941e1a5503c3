// Settings → Data in a real Chromium against web mode (started without --db, so Settings chooses): switch
// the console to a real PostgreSQL history, Traffic lists that history's rows; switch back, Traffic lists
// the local SQLite file's rows again. The password never reaches the page or the console's output.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openPgHistoryWriter } from '../../src/main/history/postgres';
import { SqliteHistoryWriter } from '../../src/main/history/sqlite';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../fixtures/postgres-cluster';
import { makeExecution } from '../store/fixtures';
import { tempDir } from '../app/helpers';
import { chromiumAvailable, ensureRendererBuilt, launchChromium, startWebMode, type WebModeRun } from './harness';

const pgSkip = postgresUnavailable();
const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED history switch browser test: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');
const SECRET = 'sw1tch-s3cret';

describe.skipIf(pgSkip !== undefined || !haveChromium)('Settings switches the history between SQLite and PostgreSQL', { timeout: 180_000 }, () => {
  let cluster: PostgresCluster;
  let url: string;
  let web: WebModeRun | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const t = tempDir('ic-e2e-switch-');

  beforeAll(async () => {
    cluster = await startPostgres();
    // Trust auth ignores the password: here it only has to stay out of every page and log line.
    url = (await cluster.createDatabase('switch_history')).replace('postgres://postgres@', `postgres://postgres:${SECRET}@`);
    const shared = await openPgHistoryWriter(url);
    for (let i = 0; i < 3; i++) shared.recordExecution(makeExecution({ gateway: 'pg-gw', text: `shared ${i}` }));
    await shared.close();
    const local = SqliteHistoryWriter.open(join(t.dir, 'history.db'), { writerThread: false });
    for (let i = 0; i < 2; i++) local.recordExecution(makeExecution({ gateway: 'local-gw', text: `local ${i}` }));
    await local.close();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
    cluster?.stop();
    t.cleanup();
  });

  const rows = () => page.getByRole('table', { name: 'Executions' }).locator('.trow[data-id]');
  const gatewaysShown = async () => (await rows().locator('.c-gateway').allTextContents()).map((x) => x.trim()).sort();
  const go = async (hash: string, heading: string) => {
    await page.evaluate((h) => (location.hash = h), hash);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  };
  const data = () => page.locator('section[aria-labelledby="storage"]');

  it('switches to PostgreSQL (Traffic lists its rows) and back to the SQLite file', async () => {
    ensureRendererBuilt();
    web = await startWebMode({ demo: false, dataDir: t.dir });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(web.openUrl);
    await go('#/traffic', 'Traffic');
    await expect.poll(gatewaysShown, { timeout: 30_000 }).toEqual(['local-gw', 'local-gw']);

    await go('#/settings', 'Settings');
    await data().getByLabel('Connection string').fill(url);
    await data().getByRole('button', { name: 'Use this history' }).click();
    await expect
      .poll(() => data().getByRole('status').textContent(), { timeout: 30_000 })
      .toMatch(/^Switched: this console now uses postgres:\/\/postgres:\*\*\*@/);
    await expect.poll(() => data().locator('dd.mono').nth(1).textContent(), { timeout: 20_000 }).toBe(url.replace(SECRET, '***'));

    await go('#/traffic', 'Traffic');
    await expect.poll(gatewaysShown, { timeout: 30_000 }).toEqual(['pg-gw', 'pg-gw', 'pg-gw']);

    await go('#/settings', 'Settings');
    await data().getByRole('button', { name: 'Switch back to the local SQLite file' }).click();
    await expect.poll(() => data().getByRole('status').textContent(), { timeout: 30_000 }).toMatch(/^Switched: this console now uses .*history\.db/);
    // The Data facts follow the switch back (a user saw postgres:// there after switching back).
    await expect.poll(() => data().locator('dd.mono').nth(1).textContent(), { timeout: 20_000 }).toMatch(/history\.db$/);
    await go('#/traffic', 'Traffic');
    await go('#/settings', 'Settings');
    await expect.poll(() => data().locator('dd.mono').nth(1).textContent(), { timeout: 20_000 }).toMatch(/history\.db$/);
    await go('#/traffic', 'Traffic');
    await expect.poll(gatewaysShown, { timeout: 30_000 }).toEqual(['local-gw', 'local-gw']);

    expect(await page.content()).not.toContain(SECRET);
    expect(web.output()).not.toContain(SECRET);
  });
});
