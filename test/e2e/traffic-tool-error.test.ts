// A tool that ran and answered `isError: true` ([desktop-client] item 5.2), in a real Chromium against web mode
// (demo gateway, a real MCP client): its Traffic row and its detail say "tool error" beside the outcome,
// which stays "allowed" (what the chain decided); a call that succeeded has no such badge. It showed as
// plain "allowed" before. A call the chain blocked gets none either: the gateway's own answer to it says
// isError, but the tool never ran (the badge's title says it did).
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
  let blockedId = '';

  beforeAll(async () => {
    session = await openConsole({ demoTimeoutMs: 90_000, demoClient: true });
    page = session.page;
    const client = session.client!;
    // The demo backend's echo rejects a call without its `message` with a result that says isError.
    const failed = await client.callTool({ name: 'echo', arguments: {} });
    expect(failed.isError).toBe(true);
    await client.callTool({ name: 'echo', arguments: { message: 'a normal day' } });
    // pii-validator blocks it; the client gets the gateway's refusal as a result with isError.
    const blocked = await client.callTool({ name: 'echo', arguments: { message: 'my ssn is 078-05-1120' } });
    expect(blocked.isError).toBe(true);
    type Rows = { items: { id: string }[] };
    const find = async (search: string) => (await session!.api<Rows>('history.query', { filter: { gateway: 'demo', event: 'tools/call', search } })).items;
    await waitFor(async () => (await find('echo')).length >= 3, 20_000, 'the three echo calls in history', 200);
    fineId = (await find('normal day'))[0]!.id;
    blockedId = (await find('078-05-1120'))[0]!.id;
    failedId = (await find('echo')).find((r) => r.id !== fineId && r.id !== blockedId)!.id;
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

  it('a blocked call says "blocked" and no "tool error", in its row and its detail', async () => {
    const row = page.getByRole('table', { name: 'Executions' }).locator(`.trow[data-id="${blockedId}"]`);
    await row.waitFor({ timeout: 10_000 });
    expect(await row.locator('.c-outcome').textContent()).toBe('blocked');
    expect(await row.locator('.c-badges').textContent()).not.toContain('tool error');
    await row.click();
    const detail = page.getByRole('complementary', { name: 'Execution detail' });
    await expect.poll(() => detail.locator('code').first().textContent(), { timeout: 10_000 }).toBe(blockedId);
    const facts = detail.locator('.detail-facts');
    await expect.poll(() => facts.textContent(), { timeout: 10_000 }).toContain('blocked');
    expect(await facts.textContent()).not.toContain('tool error');
  });
});
