// A tool that ran and answered `isError: true` ([desktop-client] item 5.2), in a real Chromium against web mode
// (demo gateway, a real MCP client): its Traffic row and its detail say "tool error" beside the outcome,
// which stays "allowed" (what the chain decided); a call that succeeded has no such badge. It showed as
// plain "allowed" before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable } from './harness';
import { openConsole, type ConsoleSession } from './support/console-session';
import { waitFor } from '../support/wait-for';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED tool-error browser test: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('a tool error in Traffic (web mode, Chromium)', { timeout: 90_000 }, () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  let failedId = '';
  let fineId = '';

  beforeAll(async () => {
    session = await openConsole({ demoTimeoutMs: 90_000, demoClient: true });
    page = session.page;
    const client = session.client!;
    // The demo backend's echo rejects a call without its `message` with a result that says isError.
    const failed = await client.callTool({ name: 'echo', arguments: {} });
    expect(failed.isError).toBe(true);
    await client.callTool({ name: 'echo', arguments: { message: 'a normal day' } });
    type Rows = { items: { id: string }[] };
    const find = async (search: string) => (await session!.api<Rows>('history.query', { filter: { gateway: 'demo', event: 'tools/call', search } })).items;
    await waitFor(async () => (await find('echo')).length >= 2, 20_000, 'the two echo calls in history', 200);
    fineId = (await find('normal day'))[0]!.id;
    failedId = (await find('echo')).find((r) => r.id !== fineId)!.id;
    await page.evaluate(() => (location.hash = '#/traffic'));
    await page.getByRole('heading', { name: 'Traffic', level: 1 }).waitFor();
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('the row and the detail say "tool error" beside "allowed"; the call that succeeded does not', async () => {
    const row = (id: string) => page.getByRole('table', { name: 'Executions' }).locator(`.trow[data-id="${id}"]`);
    await row(failedId).waitFor({ timeout: 10_000 });
    expect(await row(failedId).locator('.c-outcome').textContent()).toBe('allowed');
    expect(await row(failedId).locator('.c-badges').textContent()).toContain('tool error');
    expect(await row(fineId).locator('.c-badges').textContent()).not.toContain('tool error');
    await row(failedId).click();
    const facts = page.getByRole('complementary', { name: 'Execution detail' }).locator('.detail-facts');
    await expect.poll(() => facts.textContent(), { timeout: 10_000 }).toContain('tool error');
    expect(await facts.textContent()).toContain('allowed');
  });
});
