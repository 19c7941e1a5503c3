// Effective interceptor settings in a real Chromium against web mode (demo gateway, the sample
// interceptors): with the config making pii-validator fail-open and email-redactor's priority -2000000
// (declared: fail-closed, -1000), failure simulation, the chain palette and the side panel all show the
// effective value, computed by one function (shared/config/effective-settings.ts), labelled "override"
// or "declared". With the JSON tab broken, the canvas and the side panel both show the last valid config.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable } from './harness';
import type { PageApi } from './support/page-api';
import { openConsole, type ConsoleSession } from './support/console-session';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED effective settings browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('Effective interceptor settings in Chromium (web mode)', () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  let api: PageApi;

  beforeAll(async () => {
    session = await openConsole();
    ({ page, api } = session);
    const loaded = await api<{ text: string }>('chain.load', { id: 'demo' });
    const config = JSON.parse(loaded.text) as { overrides: Record<string, Record<string, unknown>> };
    config.overrides['samples/pii-validator'] = { failOpen: true };
    config.overrides['samples/email-redactor'] = { priorityHint: -2000000 };
    await api('chain.save', { id: 'demo', text: JSON.stringify(config, null, 2) });
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('failure simulation shows the effective failOpen, labelled override', async () => {
    await page.evaluate(() => (location.hash = '#/playground'));
    await page.getByRole('tablist', { name: 'Playground' }).getByRole('tab', { name: 'Failure simulation' }).click();
    await page.getByLabel('Simulation interceptor').selectOption('pii-validator');
    const line = page.getByTestId('simulation-effective-policy');
    await expect.poll(() => line.textContent(), { timeout: 20_000 }).toContain('pii-validator is fail-open (override), mode active (declared)');
  });

  it('the palette, the canvas and the side panel show the same effective settings, labelled', async () => {
    await page.evaluate(() => (location.hash = '#/chain/demo'));
    const redactor = page.getByTestId('palette-policy-samples/email-redactor');
    await expect.poll(() => redactor.textContent(), { timeout: 30_000 }).toContain('priority -2000000 (override)');
    expect(await page.getByTestId('palette-policy-samples/pii-validator').textContent()).toContain('fail-open (override)');
    expect(await page.getByTestId('palette-policy-samples/tool-allowlist').textContent()).toContain('audit (override)');

    // The canvas draws the planner's values (the same function) and marks the overridden ones.
    const prio = page.getByTestId('chain-node-request-samples/email-redactor').locator('.badge.prio');
    await expect.poll(() => prio.textContent(), { timeout: 30_000 }).toBe('prio -2000000 · override');
    const open = page.getByTestId('chain-node-request-samples/pii-validator').locator('.badge.open');
    expect(await open.textContent()).toBe('fail-open · override');
    expect(await page.getByTestId('chain-node-request-samples/pii-validator').locator('.badge.mode').getAttribute('data-source')).toBe('declared');

    await page.getByTestId('palette-item-samples/email-redactor').click();
    const panel = page.getByTestId('panel-effective');
    await expect.poll(() => panel.textContent(), { timeout: 10_000 }).toContain('priority -2000000 (override)');
    expect(await panel.textContent()).toContain('fail-closed (declared)');
    await page.getByTestId('palette-item-samples/pii-validator').click();
    await expect.poll(() => panel.textContent(), { timeout: 10_000 }).toContain('fail-open (override)');
    expect(await panel.textContent()).toContain('mode active (declared)');
  });

  it('with invalid JSON in the JSON tab, the canvas and the side panel still agree (both show the last valid config)', async () => {
    await page.evaluate(() => (location.hash = '#/chain/demo'));
    const node = page.getByTestId('chain-node-request-samples/tool-allowlist');
    await expect.poll(() => node.getAttribute('data-mode'), { timeout: 30_000 }).toBe('audit');
    await page.getByTestId('palette-item-samples/tool-allowlist').click();
    const panel = page.getByTestId('panel-effective');
    await expect.poll(() => panel.textContent(), { timeout: 10_000 }).toContain('mode audit (override)');

    await page.getByRole('tab', { name: 'JSON', exact: true }).click();
    await page.getByRole('textbox', { name: 'Gateway config (JSON)' }).click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText('{ "overrides": oops');
    await page.getByRole('tab', { name: 'Canvas', exact: true }).click();
    await page.getByTestId('palette-item-samples/tool-allowlist').click();
    await expect.poll(() => panel.textContent(), { timeout: 10_000 }).toContain('of the last valid config');
    expect(await panel.textContent()).toContain('mode audit (override)');
    expect(await node.getAttribute('data-mode')).toBe('audit');
  });
});
