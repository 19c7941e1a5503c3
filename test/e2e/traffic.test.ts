// Traffic in a real Chromium against web mode (demo gateway: server-everything + the sample interceptor
// server, recording into SQLite), with calls sent by a real MCP client: rows appearing live (and held
// while paused), outcome=blocked showing only blocked calls, the detail's waterfall and email-redactor
// diff, a replay producing a linked execution, Edit & replay removing the SSN → allowed, Compare showing
// the difference, a bulk replay after disabling pii-validator reporting blocked → allowed, and the `r` key
// replaying the row under the cursor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/client';
import { chromiumAvailable } from './harness';
import type { PageApi } from './support/page-api';
import { openConsole, type ConsoleSession } from './support/console-session';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED traffic browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('Traffic in Chromium (web mode)', () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  let api: PageApi;
  let client: Client;

  const rows = () => page.getByRole('table', { name: 'Executions' }).locator('.trow[data-id]');
  const outcomes = () => rows().locator('.c-outcome').allTextContents();
  const detail = () => page.getByRole('complementary', { name: 'Execution detail' });
  const rowWith = (outcome: string) => rows().filter({ has: page.locator(`.pill.${outcome}`) });

  /** After a replay of originalId: its detail is open, linked both ways, and it tops the table. Returns its id. */
  async function expectLinkedReplayOnTop(originalId: string): Promise<string> {
    const link = detail().getByRole('note', { name: 'Replay of' });
    await link.waitFor({ timeout: 20_000 });
    expect(await link.getByRole('link').textContent()).toBe(originalId);
    const replayId = (await detail().locator('.detail-id').textContent())!;
    expect(replayId).not.toBe(originalId);
    await expect.poll(() => rows().first().getAttribute('data-id'), { timeout: 10_000 }).toBe(replayId);
    expect(await rows().first().locator('.mini.replay').count()).toBe(1);
    const original = await api<{ replayedBy: string[] }>('history.detail', { executionId: originalId });
    expect(original.replayedBy).toContain(replayId);
    return replayId;
  }

  beforeAll(async () => {
    session = await openConsole({ demoClient: true });
    ({ page, api } = session);
    client = session.client!;
    await page.evaluate(() => (location.hash = '#/traffic'));
    await page.getByRole('heading', { name: 'Traffic', level: 1 }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('shows traffic live as it flows, and holds it while paused', async () => {
    await page.getByText('No traffic recorded yet').waitFor();
    await client.callTool({ name: 'echo', arguments: { message: 'mail alice@example.com please' } });
    await client.callTool({ name: 'echo', arguments: { message: 'my ssn is 123-45-6789' } });
    await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
    // Pushed events bring the rows in: no reload, no polling by the page.
    await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(3);
    expect(await outcomes()).toEqual(['allowed', 'blocked', 'mutated']);
    expect(await rows().first().locator('.c-target').textContent()).toBe('get-sum');
    expect(await rowWith('blocked').locator('.c-blocker').textContent()).toContain('pii-validator');
    expect(await rowWith('mutated').locator('.mini.shadow').count()).toBe(1);

    await page.getByRole('button', { name: 'Live' }).click();
    await client.callTool({ name: 'echo', arguments: { message: 'social security 987-65-4321' } });
    await page.getByRole('button', { name: /Paused · 1 new/ }).waitFor({ timeout: 15_000 });
    expect(await rows().count()).toBe(3);
    await page.getByRole('button', { name: /Paused/ }).click();
    await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(4);
  });

  it('filters outcome=blocked in the store: only the blocked calls', async () => {
    await page.getByLabel('Outcome').selectOption('blocked');
    await expect.poll(() => outcomes(), { timeout: 10_000 }).toEqual(['blocked', 'blocked']);
    await page.getByLabel('Matching executions').filter({ hasText: '2 executions' }).waitFor();
    await page.getByRole('button', { name: 'Clear outcome filter' }).click();
    await expect.poll(() => rows().count()).toBe(4);
    // Free-text search runs in the store's payload index too.
    await page.keyboard.press('/');
    await page.keyboard.insertText('alice*');
    await page.keyboard.press('Enter');
    await expect.poll(() => outcomes()).toEqual(['mutated']);
    await page.getByLabel('Search payloads').fill('');
    await page.getByLabel('Search payloads').press('Enter');
    await expect.poll(() => rows().count()).toBe(4);
  });

  it('opens the detail with the waterfall and the email-redactor diff (keyboard: j/k and Enter)', async () => {
    await page.locator('body').click({ position: { x: 5, y: 880 } });
    const index = (await outcomes()).indexOf('mutated');
    for (let i = 0; i < 6; i++) await page.keyboard.press('k');
    for (let i = 0; i < index; i++) await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    const request = detail().getByRole('region', { name: 'Request phase' });
    await request.waitFor();
    expect(await request.getByRole('group', { name: 'Validations (parallel)' }).locator('article').count()).toBeGreaterThan(1);
    const redactor = request.getByRole('group', { name: 'Mutations (sequential)' }).locator('[data-step="samples/email-redactor"]');
    expect(await redactor.locator('.badge.outcome').textContent()).toBe('mutated');
    const diff = redactor.getByRole('list', { name: 'Diff of samples/email-redactor' });
    expect(await diff.textContent()).toContain('$.arguments.message');
    expect(await diff.locator('del').textContent()).toBe('alice@example.com');
    expect(await diff.locator('ins').textContent()).toBe('[EMAIL_REDACTED]');
    expect(await request.locator('[data-step="samples/tool-allowlist"] .badge.shadow').count()).toBe(1);
    await detail().getByRole('tab', { name: 'Raw JSON-RPC' }).click();
    expect(await detail().getByLabel('Raw Gateway → backend', { exact: true }).textContent()).toContain('[EMAIL_REDACTED]');
    await detail()
      .getByRole('tab', { name: /Sink events/ })
      .click();
    expect(await detail().getByRole('table', { name: 'Sink events' }).textContent()).toContain('samples/request-logger');
  });

  it('replays an execution through the current chain and links the replay to it', async () => {
    await detail().getByRole('tab', { name: 'Waterfall' }).click();
    const originalId = (await detail().locator('.detail-id').textContent())!;
    await detail().getByRole('button', { name: 'Replay', exact: true }).click();
    await expectLinkedReplayOnTop(originalId);
  });

  it('Edit & replay: removing the SSN turns the blocked call into an allowed one, and Compare shows it', async () => {
    await rowWith('blocked').last().click();
    await detail().getByRole('note', { name: 'Why it was blocked' }).filter({ hasText: 'Blocked by samples/pii-validator in the request phase' }).waitFor();
    const originalId = (await detail().locator('.detail-id').textContent())!;
    await detail().getByRole('button', { name: 'Edit & replay…' }).click();
    const dialog = page.getByRole('dialog', { name: /Edit & replay/ });
    const editor = dialog.getByRole('textbox', { name: 'Request params', exact: true });
    await expect.poll(() => editor.textContent()).toContain('123-45-6789');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(JSON.stringify({ name: 'echo', arguments: { message: 'my id is withheld' } }));
    await dialog.getByRole('button', { name: 'Replay edited request' }).click();
    await detail().getByRole('note', { name: 'Replay of' }).waitFor({ timeout: 20_000 });
    expect(await detail().locator('.detail-facts .pill').textContent()).toBe('allowed');
    expect(await detail().getByRole('note', { name: 'Replay of' }).getByRole('link').textContent()).toBe(originalId);

    await detail().getByRole('button', { name: 'Compare with the original' }).click();
    const verdict = page.getByRole('status', { name: 'Difference' });
    await verdict.waitFor();
    expect(await verdict.textContent()).toContain('Outcome blocked → allowed');
    expect(await page.getByRole('region', { name: 'Steps that differ' }).textContent()).toContain('samples/pii-validator');
    const received = page.getByRole('list', { name: 'Request as received differences' });
    expect(await received.textContent()).toContain('$.arguments.message');
    expect(await received.locator('del').allTextContents()).toContain('ssn');
    await page.getByRole('button', { name: '← Back to traffic' }).click();
    await page.getByRole('table', { name: 'Executions' }).waitFor();
  });

  it('bulk-replays the blocked calls after pii-validator is disabled: blocked → allowed', async () => {
    const demo = await api<{ config: Record<string, unknown> }>('gateways.get', { id: 'demo' });
    const overrides = { ...(demo.config.overrides as Record<string, unknown>), 'samples/pii-validator': { enabled: false } };
    await api('gateways.update', { id: 'demo', config: { ...demo.config, overrides } });

    await page.getByLabel('Outcome').selectOption('blocked');
    await expect.poll(() => outcomes()).toEqual(['blocked', 'blocked']);
    await page.getByRole('button', { name: 'Bulk replay…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bulk replay' });
    await dialog.getByRole('button', { name: 'Start replay' }).click();
    const summary = dialog.getByRole('list', { name: 'Bulk replay summary' });
    await summary.waitFor({ timeout: 60_000 });
    const group = summary.getByRole('button', { name: /blocked → allowed/ });
    expect(await group.textContent()).toBe('2 blocked → allowed');
    expect(await dialog.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('2');
    await dialog.getByRole('button', { name: 'Compare', exact: true }).first().click();
    const verdict = page.getByRole('status', { name: 'Difference' });
    await verdict.waitFor();
    expect(await verdict.textContent()).toContain('Outcome blocked → allowed');
    expect(await page.getByRole('region', { name: 'Steps that differ' }).textContent()).toContain('skipped: disabled');
  }, 90_000);

  it('replays the row under the keyboard cursor with r: the replay on top, linked, its detail open', async () => {
    // Back from the bulk replay's comparison to the whole list, no detail open.
    await page.getByRole('button', { name: '← Back to traffic' }).click();
    await page.getByRole('button', { name: 'Clear outcome filter' }).click();
    await page.locator('body').click({ position: { x: 5, y: 880 } });
    await page.keyboard.press('Escape');
    await detail().waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('.ttable.stale').count()).toBe(0);
    const before = await rows().count();
    expect(before).toBeGreaterThan(4);

    // The cursor on the second row (keys only: no click), then r.
    for (let i = 0; i < before; i++) await page.keyboard.press('k');
    await page.keyboard.press('j');
    const originalId = (await page.locator('.trow.cursor').getAttribute('data-id'))!;
    expect(await rows().nth(1).getAttribute('data-id')).toBe(originalId);
    await page.keyboard.press('r');

    const replayId = await expectLinkedReplayOnTop(originalId);
    expect(await rows().count()).toBe(before + 1);
    // The opened replay takes the cursor, so j/k go on from it.
    expect(await page.locator('.trow.cursor').getAttribute('data-id')).toBe(replayId);
  }, 60_000);
});
