// Traffic and Sinks details from issue #19's "Also" list, in a real Chromium against web mode (demo gateway,
// calls from a real MCP client): Bulk replay says how many it will replay with replays excluded; Compare's
// word diff shows the removed words whole, then the added words; the table header's "Blocked by" does not
// run into "Duration" with the detail open; `?` shows the keyboard shortcuts; the Target filter suggests
// values from the data (its list kept inside the window); the Sinks interceptor filter lists only sink interceptors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/client';
import { chromiumAvailable } from './harness';
import type { PageApi } from './support/page-api';
import { openConsole, type ConsoleSession } from './support/console-session';
import { waitFor } from '../support/wait-for';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED traffic extras browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

const SSN_TEXT = 'hello, my ssn is 078-05-1120 thanks';
const PLAIN_TEXT = 'hello, just a normal day thanks';

describe.skipIf(!haveChromium)('Traffic and Sinks details in Chromium (web mode)', { timeout: 90_000 }, () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  let api: PageApi;
  let client: Client;
  let blockedId = '';
  let allowedId = '';

  const rows = () => page.getByRole('table', { name: 'Executions' }).locator('.trow[data-id]');
  const goto = async (hash: string) => page.evaluate((h) => (location.hash = h), hash);

  beforeAll(async () => {
    session = await openConsole({ demoTimeoutMs: 90_000, demoClient: true });
    ({ page, api } = session);
    client = session.client!;
    await client.callTool({ name: 'echo', arguments: { message: SSN_TEXT } });
    await client.callTool({ name: 'echo', arguments: { message: PLAIN_TEXT } });
    type Page_ = { items: { id: string; outcome: string; replayOf?: string }[] };
    const find = async (search: string) => (await api<Page_>('history.query', { filter: { gateway: 'demo', event: 'tools/call', search } })).items;
    // The store writes in batches off the hot path: wait until both calls are readable.
    await waitFor(async () => (await find('ssn')).length + (await find('normal day')).length >= 2, 20_000, 'the two echo calls in history', 200);
    blockedId = (await find('ssn'))[0]!.id;
    allowedId = (await find('normal day'))[0]!.id;
    // One replay among the echo calls: a bulk replay must not count it.
    await api('replay.run', { executionId: allowedId, mode: 'backend' });
    await goto('#/traffic');
    await page.getByRole('heading', { name: 'Traffic', level: 1 }).waitFor();
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('the Target filter suggests recorded targets as you type; picking one filters', async () => {
    const target = page.getByRole('combobox', { name: 'Target' });
    await target.click();
    await target.pressSequentially('ech');
    const suggestions = page.getByRole('listbox', { name: 'Target suggestions' });
    await suggestions.getByRole('option', { name: 'echo', exact: true }).click();
    expect(await target.inputValue()).toBe('echo');
    await expect.poll(async () => new Set(await rows().locator('.c-target').allTextContents())).toEqual(new Set(['echo']));
    // Interceptor suggestions come from the recorded steps, matched anywhere in the name.
    const interceptor = page.getByRole('combobox', { name: 'Interceptor' });
    await interceptor.click();
    await interceptor.pressSequentially('pii');
    expect(await page.getByRole('listbox', { name: 'Interceptor suggestions' }).getByRole('option').allTextContents()).toEqual(['samples/pii-validator']);
    await page.keyboard.press('Escape');
    await interceptor.fill('');
    await interceptor.blur();
  });

  it('Bulk replay says how many it will replay, replays excluded, and replays exactly that many', async () => {
    await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(3);
    await page.getByRole('button', { name: 'Bulk replay…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bulk replay' });
    const plan = dialog.getByRole('status', { name: 'Bulk replay plan' });
    await expect.poll(() => plan.textContent(), { timeout: 10_000 }).toContain('It will replay 2 executions.');
    expect(await plan.textContent()).toContain('1 matching execution is a replay and is excluded');
    expect(await dialog.textContent()).toContain('3 match');
    await dialog.getByRole('button', { name: 'Start replay' }).click();
    await dialog.getByRole('list', { name: 'Bulk replay summary' }).waitFor({ timeout: 60_000 });
    expect(await dialog.getByRole('progressbar').getAttribute('aria-valuemax')).toBe('2');
    expect(await dialog.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('2');
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
  });

  /** With the detail open, every column title and cell fits its column, and none runs past the table's right edge. */
  async function expectColumnsFit(size: string): Promise<void> {
    const header = page.getByRole('table', { name: 'Executions' }).getByRole('row').first();
    const overflow = await header
      .getByRole('columnheader')
      .evaluateAll((cells) =>
        cells
          .filter((c) => c.textContent && c.getBoundingClientRect().width > 0 && c.scrollWidth > c.clientWidth)
          .map((c) => `${c.textContent}: ${c.scrollWidth} > ${c.clientWidth}`),
      );
    expect(overflow).toEqual([]);
    // Neighbouring titles do not touch: each ends before the next begins.
    const boxes = await header.getByRole('columnheader').evaluateAll((cells) =>
      cells
        .filter((c) => c.textContent && c.getBoundingClientRect().width > 0)
        .map((c) => {
          const r = document.createRange();
          r.selectNodeContents(c);
          const t = r.getBoundingClientRect();
          return { text: c.textContent!, left: t.left, right: t.right };
        }),
    );
    for (let i = 1; i < boxes.length; i++)
      expect(boxes[i]!.left, `${size}: ${boxes[i - 1]!.text} | ${boxes[i]!.text}`).toBeGreaterThanOrEqual(boxes[i - 1]!.right);
    // And none is cut off at the table's right edge, in the header or in a row (a duration read "31.9 m").
    const tableRight = await page.getByRole('table', { name: 'Executions' }).evaluate((t) => t.getBoundingClientRect().right);
    expect(boxes[boxes.length - 1]!.right, size).toBeLessThanOrEqual(tableRight);
    const durationRight = await rows()
      .first()
      .locator('.c-duration')
      .evaluate((c) => {
        const r = document.createRange();
        r.selectNodeContents(c);
        return r.getBoundingClientRect().right;
      });
    expect(durationRight, `${size}: a row's duration`).toBeLessThanOrEqual(tableRight);
  }

  it('the header with the detail open: every column title fits its column (no "Blocked by" over "Duration"), also in a laptop-size window', async () => {
    const clear = page.getByRole('button', { name: 'Clear target filter' });
    if (await clear.count()) await clear.click();
    await rows().first().click();
    await page.getByRole('complementary', { name: 'Execution detail' }).waitFor();
    await expectColumnsFit('1440 × 900');
    // A 1280 px window leaves the list about 540 px beside the detail.
    await page.setViewportSize({ width: 1280, height: 720 });
    try {
      await expectColumnsFit('1280 × 720');
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it('Compare shows the removed words whole, then the added words (a word-level diff, not interleaved)', async () => {
    await goto(`#/traffic/compare/${blockedId}/${allowedId}`);
    const received = page.getByRole('list', { name: 'Request as received differences' });
    await received.waitFor();
    expect(await received.locator('del').allTextContents()).toEqual(['my ssn is 078-05-1120']);
    expect(await received.locator('ins').allTextContents()).toEqual(['just a normal day']);
    // Blocked at the request vs allowed: pii-validator (blocked → allowed) and request-logger (skipped →
    // recorded) differ; the response phase the blocked call never ran is not counted step by step.
    const verdict = page.getByRole('status', { name: 'Difference' });
    expect(await verdict.textContent()).toContain('2 step(s) differ');
    expect(await page.getByRole('region', { name: 'Steps that differ' }).locator('tbody tr').count()).toBe(2);
    await page.getByRole('button', { name: '← Back to traffic' }).click();
  });

  it('? shows the keyboard shortcuts (not while typing in a field)', async () => {
    await page.getByRole('table', { name: 'Executions' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search payloads' }).focus();
    await page.keyboard.type('?');
    expect(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Search payloads' }).fill('');
    await page.locator('h1').click();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    expect(await dialog.getByRole('region', { name: 'Traffic shortcuts' }).textContent()).toContain('Replay the execution under the cursor');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('the Sinks interceptor filter lists only sink interceptors', async () => {
    await goto('#/sinks');
    await page.getByRole('heading', { name: 'Sinks', level: 1 }).waitFor();
    const select = page.getByRole('search', { name: 'Filter sink events' }).getByLabel('Interceptor');
    await expect
      .poll(async () => (await select.locator('option').allTextContents()).filter((o) => o !== 'any'), { timeout: 20_000 })
      .toEqual(['samples/request-logger']);
  });

  it('the suggestions of a filter near the right edge stay in the window, every name readable to its end', async () => {
    // With resources/list recorded, the Method select is wide enough that at 1440 px the Interceptor chip
    // ends the filter bar's first row, close to the window's right edge (as in the README screenshot): a
    // list hung from the field's left edge ran past the window there and cut the names off.
    await client.listResources();
    await goto('#/traffic');
    await page.getByRole('combobox', { name: 'Method' }).locator('option', { hasText: 'resources/list' }).waitFor({ state: 'attached', timeout: 20_000 });
    const interceptor = page.getByRole('combobox', { name: 'Interceptor' });
    await interceptor.fill('');
    await interceptor.pressSequentially('redact');
    const list = page.getByRole('listbox', { name: 'Interceptor suggestions' });
    const options = list.getByRole('option');
    await expect.poll(() => options.allTextContents()).toEqual(['samples/email-redactor', 'samples/secretless-redactor']);
    // The case this test is about: from the field's left edge, the list would not fit in the window.
    const field = (await interceptor.boundingBox())!;
    const width = (await list.boundingBox())!.width;
    expect(field.x - 8 + width).toBeGreaterThan(await page.evaluate(() => document.documentElement.clientWidth));
    // The last character of each name is on screen and is the option itself (nothing clips it).
    const ends = await options.evaluateAll((items) =>
      items.map((li) => {
        const r = document.createRange();
        r.selectNodeContents(li);
        const text = r.getBoundingClientRect();
        const hit = document.elementFromPoint(text.right - 2, text.top + text.height / 2);
        return { name: li.textContent, inWindow: text.right <= document.documentElement.clientWidth, readable: hit === li || li.contains(hit) };
      }),
    );
    expect(ends).toEqual(ends.map((e) => ({ ...e, inWindow: true, readable: true })));
    await page.keyboard.press('Escape');
    await interceptor.fill('');
    await interceptor.blur();
  });
});
