// Playground Invoke in a real Chromium against web mode (issue #19 item 8): choosing tool-allowlist
// sends the config the gateway runs it with (never a stand-in {"allow": []} that blocks every call), and
// without one says the config is required instead of ticking "send"; "(edited)" means a real edit; the
// run history survives leaving the page; Invoke waits while the config JSON does not parse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable } from './harness';
import { waitForDemoGateway, type PageApi } from './support/page-api';
import { openConsole, type ConsoleSession } from './support/console-session';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED playground invoke browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('Playground Invoke in Chromium (web mode)', { timeout: 90_000 }, () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  let api: PageApi;

  const invokeButton = () => page.getByRole('button', { name: 'Invoke', exact: true });
  const source = () => page.getByRole('region', { name: 'Invocation' }).locator('.editor-head .muted').first();

  async function openPlayground() {
    await page.evaluate(() => (location.hash = '#/playground'));
    await page.getByRole('heading', { name: 'Playground', level: 1 }).waitFor({ timeout: 60_000 });
  }

  beforeAll(async () => {
    session = await openConsole({ demoTimeoutMs: 90_000, viewport: { width: 1400, height: 900 } });
    ({ page, api } = session);
    await openPlayground();
    await page.getByLabel('Interceptor', { exact: true }).locator('option', { hasText: 'tool-allowlist' }).waitFor({ state: 'attached', timeout: 60_000 });
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('tool-allowlist: sends the config the gateway runs it with, so echo is allowed', async () => {
    await page.getByLabel('Interceptor', { exact: true }).selectOption({ label: 'tool-allowlist · validation' });
    const send = page.getByLabel('Send config');
    await expect.poll(() => send.isChecked()).toBe(true);
    await invokeButton().click();
    const verdict = page.getByRole('status', { name: 'Validation verdict' });
    await verdict.waitFor();
    expect(await verdict.textContent()).not.toContain('would block');
    const request = await page.getByLabel('Raw JSON-RPC request', { exact: true }).textContent();
    expect(request).toMatch(/"allow": \[\s*"echo",\s*"get-\*"\s*\]/);
  });

  it('"(edited)" appears only after a real edit of the payload', async () => {
    await page.getByLabel('Interceptor', { exact: true }).selectOption({ label: 'pii-validator · validation' });
    await expect.poll(() => source().textContent()).toContain('template:');
    expect(await source().textContent()).not.toContain('(edited)');
    await page.getByRole('button', { name: 'Reset to template' }).click();
    expect(await source().textContent()).not.toContain('(edited)');
    const editor = page.getByRole('textbox', { name: 'Payload', exact: true });
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText(' ');
    await expect.poll(() => source().textContent()).toContain('(edited)');
    await page.getByRole('button', { name: 'Reset to template' }).click();
    await expect.poll(() => source().textContent()).not.toContain('(edited)');
  });

  it('keeps Invoke disabled while the config JSON does not parse', async () => {
    await page.getByLabel('Interceptor', { exact: true }).selectOption({ label: 'prompt-injection-heuristic · validation' });
    const invocation = page.getByRole('region', { name: 'Invocation' });
    await invocation.locator('summary', { hasText: 'Config' }).click();
    const form = page.getByRole('group', { name: 'Config of prompt-injection-heuristic' });
    await form.getByRole('tab', { name: 'Raw JSON' }).click();
    const raw = page.getByRole('textbox', { name: 'Config of prompt-injection-heuristic (raw JSON)', exact: true });
    await raw.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('{"threshold": 0.2,');
    await expect.poll(() => invokeButton().isDisabled()).toBe(true);
    await invocation.getByText('Invoke waits for valid config JSON').waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('{"threshold": 0.2}');
    await expect.poll(() => invokeButton().isEnabled()).toBe(true);
  });

  it('keeps the run history when leaving the Playground and coming back', async () => {
    const rows = page.getByRole('table', { name: 'Runs' }).locator('tbody tr');
    await invokeButton().click();
    await expect.poll(() => rows.count()).toBe(2);
    await page.evaluate(() => (location.hash = '#/traffic'));
    await page.getByRole('heading', { name: 'Traffic', level: 1 }).waitFor();
    await openPlayground();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(1).textContent()).toContain('samples/tool-allowlist');
    // The newest run is shown again in the result panel.
    await page.getByRole('status', { name: 'Validation verdict' }).waitFor();
  });

  it('tool-allowlist on a gateway that sets no config: "send" stays off and the form says config is required', async () => {
    const demo = await api<{ config: { overrides: Record<string, unknown> } }>('gateways.get', { id: 'demo' });
    const { 'samples/tool-allowlist': _dropped, ...overrides } = demo.config.overrides;
    await api('gateways.update', { id: 'demo', config: { ...demo.config, overrides } });
    await waitForDemoGateway(api, 90_000);
    // Another interceptor first, so that picking tool-allowlist again is a new choice with the new config.
    await page.getByLabel('Interceptor', { exact: true }).selectOption({ label: 'pii-validator · validation' });
    await page.getByLabel('Interceptor', { exact: true }).selectOption({ label: 'tool-allowlist · validation' });
    await page.getByRole('note', { name: 'Config required' }).waitFor();
    expect(await page.getByLabel('Send config').isChecked()).toBe(false);
  });
});
