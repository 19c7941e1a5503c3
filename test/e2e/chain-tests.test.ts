// [chain-tests] in a real Chromium against web mode: a call recorded through the demo gateway (a real MCP
// client; email-redactor changes it) is saved from Traffic as a test case, passes on the Tests screen, then
// fails there with the payload diff once the chain is edited not to redact, and `interceptor-console test
// --junit` reports the same failure from the case file the screen saved.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable, root } from './harness';
import { openConsole, type ConsoleSession } from './support/console-session';
import { waitFor } from '../support/wait-for';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED chain-tests browser test: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('chain tests from Traffic to the Tests screen (web mode, Chromium)', { timeout: 120_000 }, () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  let executionId = '';
  let configPath = '';

  beforeAll(async () => {
    session = await openConsole({ demoTimeoutMs: 90_000, demoClient: true });
    page = session.page;
    await session.client!.callTool({ name: 'echo', arguments: { message: 'mail carol@example.com the report' } });
    type Rows = { items: { id: string; outcome: string }[] };
    const find = async () => (await session!.api<Rows>('history.query', { filter: { gateway: 'demo', event: 'tools/call', search: 'report' } })).items;
    await waitFor(async () => (await find()).length > 0, 20_000, 'the echo call in history', 200);
    const [row] = await find();
    expect(row!.outcome).toBe('mutated');
    executionId = row!.id;
    configPath = (await session.api<{ configPath: string }>('chain.load', { id: 'demo' })).configPath;
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('saves the call from its Traffic detail as a test case of the demo gateway', async () => {
    await page.evaluate((id) => (location.hash = `#/traffic/${id}`), executionId);
    const detail = page.getByRole('complementary', { name: 'Execution detail' });
    await detail.getByRole('button', { name: 'Save as test case' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as test case' });
    await expect.poll(() => dialog.getByLabel('Gateway').inputValue(), { timeout: 10_000 }).toBe('demo');
    await dialog.getByLabel('Case name').fill('redacts an email address');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved 1 test case' }).waitFor({ timeout: 10_000 });
    expect(existsSync(join(configPath.replace(/\.json$/, '.tests'), 'redacts-an-email-address.json'))).toBe(true);
  });

  it('passes on the Tests screen against the chain it was recorded on', async () => {
    await page.evaluate(() => (location.hash = '#/tests'));
    await page.getByRole('heading', { name: 'Tests', level: 1 }).waitFor();
    await page.getByRole('list', { name: 'Test cases' }).getByText('redacts an email address').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Run all' }).click();
    const summary = page.getByRole('status', { name: 'Test results' });
    await expect.poll(() => summary.textContent(), { timeout: 20_000 }).toContain('1 passed, 0 failed, 0 could not run');
  });

  it('fails with the diff on the Tests screen and in the CLI once the chain stops redacting', async () => {
    const doc = await session!.api<{ text: string }>('chain.load', { id: 'demo' });
    const config = JSON.parse(doc.text) as { overrides?: Record<string, unknown> };
    config.overrides = { ...config.overrides, 'samples/email-redactor': { enabled: false } };
    await session!.api('chain.save', { id: 'demo', text: JSON.stringify(config, null, 2) });

    await page.getByRole('button', { name: 'Run all' }).click();
    const summary = page.getByRole('status', { name: 'Test results' });
    await expect.poll(() => summary.textContent(), { timeout: 20_000 }).toContain('0 passed, 1 failed, 0 could not run');
    const result = page.getByLabel('Result of redacts an email address');
    await result.waitFor();
    const text = await result.textContent();
    expect(text).toContain('outcome: expected mutated, got allowed');
    expect(text).toContain('$.arguments.message');
    expect(text).toContain('mail carol@example.com the report'); // what the backend would now get
    expect(text).toContain('samples/email-redactor (request): disabled');

    const junit = join(mkdtempSync(join(tmpdir(), 'ic-e2e-junit-')), 'results.xml');
    const cli = spawnSync(process.execPath, [join(root, 'out/cli/index.js'), 'test', '--config', configPath, '--junit', junit], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(cli.status).toBe(1);
    expect(cli.stdout).toMatch(/FAIL {2}redacts an email address/);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('failures="1"');
    expect(xml).toContain('$.arguments.message: expected &quot;mail [EMAIL_REDACTED] the report&quot;');
  });
});
