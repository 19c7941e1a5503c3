// The Chain screen in a real Chromium against web mode (no demo gateway): a gateway created from scratch
// in the wizard (server-everything as the backend, the bundled sample interceptor server), interceptors
// enabled by dragging them onto the canvas, a priority change reordering the canvas, a switch to audit,
// Save writing exactly what the JSON tab shows, the running gateway hot-reloading it under a live client
// session, and invalid JSON that shows its path and saves nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumAvailable, ensureRendererBuilt, launchChromium, root, startWebMode, type WebModeRun } from './harness';
import { connectHttpClient, firstToken } from '../app/mcp-client';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED Chain screen browser tests: /usr/bin/chromium is missing (apt-get install -y chromium).');

const everythingBin = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const ID = 'chain-e2e';
const text = (r: unknown) => JSON.stringify(r);

describe.skipIf(!haveChromium)('Chain screen (web mode, Chromium)', () => {
  let web: WebModeRun;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let client: Client | undefined;
  const configFile = () => join(web.dataDir, 'gateways', `${ID}.json`);
  const node = (phase: string, id: string) => page.getByTestId(`chain-node-${phase}-${id}`);
  const step = async (id: string) => Number(await node('request', id).getAttribute('data-step'));
  /**
   * Clicks a node until its side panel is open, and returns that panel. In a clean-clone CI run a click just
   * after the canvas changed (a drop, a pan to the selection) once selected nothing: the test then filled the
   * panel still open for another interceptor, and its retries worked on that wrong state.
   */
  async function openPanel(phase: string, id: string) {
    const panel = page.getByRole('complementary', { name: `Interceptor ${id}`, exact: true });
    await expect
      .poll(
        async () => {
          if (!(await panel.isVisible())) await node(phase, id).click();
          return panel.isVisible();
        },
        { timeout: 30_000, interval: 1_500 },
      )
      .toBe(true);
    return panel;
  }

  /** What the JSON tab shows, read the way a user would take it: select all, copy. */
  async function jsonTabText(): Promise<string> {
    await page.getByRole('tab', { name: 'JSON', exact: true }).click();
    const editor = page.getByRole('textbox', { name: 'Gateway config (JSON)' });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('ControlOrMeta+C');
    return page.evaluate(() => navigator.clipboard.readText());
  }

  async function replaceJsonTabText(next: string): Promise<void> {
    await page.getByRole('tab', { name: 'JSON', exact: true }).click();
    const editor = page.getByRole('textbox', { name: 'Gateway config (JSON)' });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(next);
  }

  beforeAll(async () => {
    ensureRendererBuilt();
    web = await startWebMode({ demo: false });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.url });
    page = await context.newPage();
    await page.goto(`${web.openUrl}#/chain`);
  }, 120_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await browser?.close();
    await web?.stop();
  });

  it('creates a gateway from scratch in the wizard: server-everything backend, the bundled samples', async () => {
    await page.getByRole('heading', { name: 'Chain', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New gateway…' }).first().click();
    const wizard = page.getByRole('dialog', { name: 'New gateway' });

    // Typed by hand…
    await wizard.getByLabel('Backend name').fill('everything');
    await wizard.getByLabel('Backend command').fill(process.execPath);
    await wizard.getByLabel('Backend arguments').fill(`${everythingBin}\nstdio`);
    // …or, the same server, imported from a Claude Desktop config.
    await wizard.getByRole('radio', { name: 'From a client config' }).click();
    const claude = { mcpServers: { everything: { command: process.execPath, args: [everythingBin, 'stdio'] }, broken: { url: 42 } } };
    await wizard.getByLabel('Client config').fill(JSON.stringify(claude, null, 2));
    await wizard.getByRole('button', { name: 'Read servers' }).click();
    await wizard.getByText(/Skipped broken/).waitFor();
    await wizard.getByRole('option', { name: /everything/ }).click();
    expect(await wizard.getByLabel('Backend command').inputValue()).toBe(process.execPath);
    expect(await wizard.getByLabel('Backend arguments').inputValue()).toBe(`${everythingBin}\nstdio`);
    await wizard.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => wizard.getByTestId('backend-test').textContent(), { timeout: 45_000 }).toMatch(/Connected to .*\d+ tools/);
    await wizard.getByRole('button', { name: 'Next' }).click();

    await wizard.getByRole('button', { name: 'Add the bundled samples' }).click();
    await expect.poll(() => wizard.getByTestId('server-test-samples').textContent(), { timeout: 45_000 }).toMatch(/Connected: 7 interceptors .*email-redactor/);
    await wizard.getByRole('button', { name: 'Next' }).click();

    await wizard.getByLabel('Gateway name').fill('Chain e2e');
    expect(Number(await wizard.getByLabel('Port').inputValue())).toBeGreaterThan(0);
    await wizard.getByRole('button', { name: 'Next' }).click();
    const preview = (await wizard.getByLabel('Config preview').textContent()) ?? '';
    expect(preview).toContain('"samples/email-redactor": {\n      "enabled": false');
    await wizard.getByRole('button', { name: 'Create and start' }).click();

    await wizard.waitFor({ state: 'hidden', timeout: 30_000 });
    expect(page.url()).toContain(`#/chain/${ID}`);
    await page.getByRole('status').filter({ hasText: 'Running' }).first().waitFor({ timeout: 30_000 });
    // Every discovered interceptor starts disabled: the palette says so on hover, the canvas is empty.
    const allowlist = page.getByTestId('palette-item-samples/tool-allowlist');
    await expect.poll(() => allowlist.getAttribute('data-reason'), { timeout: 30_000 }).toBe('disabled');
    expect(await allowlist.getAttribute('title')).toMatch(/Disabled by an override/);
    expect(await page.locator('[data-testid^="chain-node-request-"]').count()).toBe(0);
    const onDisk = JSON.parse(readFileSync(configFile(), 'utf8')) as { backend: { command: string }; staticInterceptors: { name: string }[] };
    expect(onDisk.backend.command).toBe(process.execPath);
    expect(onDisk.staticInterceptors.map((s) => s.name)).toEqual(['samples']);
  }, 120_000);

  it('enables interceptors by dragging them from the palette onto the canvas', async () => {
    const canvas = page.getByTestId('chain-canvas');
    for (const name of ['email-redactor', 'pii-validator', 'secretless-redactor']) {
      await page.getByTestId(`palette-item-samples/${name}`).dragTo(canvas);
      await node('request', `samples/${name}`).waitFor({ timeout: 15_000 });
    }
    // The engine's order: secretless-redactor (-1000000) before email-redactor (-1000); the validator in the parallel group.
    expect(await step('samples/secretless-redactor')).toBe(1);
    expect(await step('samples/email-redactor')).toBe(2);
    expect(await page.getByTestId('chain-node-request-samples/pii-validator').textContent()).toContain('validation');
    expect(await page.getByTestId('palette-item-samples/email-redactor').getAttribute('data-applies')).toBe('true');
    // Not applying here, with the reason: email-redactor hooks tools/call in the request phase only.
    await page.getByRole('radio', { name: 'Response' }).click();
    await expect.poll(() => page.getByTestId('palette-item-samples/email-redactor').getAttribute('data-reason'), { timeout: 15_000 }).toBe('other-phase');
    expect(await page.getByTestId('palette-item-samples/email-redactor').getAttribute('title')).toMatch(/only in the request phase/);
    await page.getByRole('radio', { name: 'Request' }).click();
    await page.getByLabel('Event', { exact: true }).selectOption('resources/read');
    await expect.poll(() => page.getByTestId('palette-item-samples/email-redactor').getAttribute('data-reason'), { timeout: 15_000 }).toBe('event-not-hooked');
    await page.getByLabel('Event', { exact: true }).selectOption('tools/call');
    await node('request', 'samples/email-redactor').waitFor();
  }, 60_000);

  it('reorders the canvas when a priority changes, and refuses widening hooks with the reason', async () => {
    const panel = await openPanel('request', 'samples/email-redactor');
    await panel.getByRole('spinbutton', { name: 'Priority' }).fill('-2000000');
    await panel.getByRole('spinbutton', { name: 'Priority' }).press('Enter');
    await expect.poll(() => step('samples/email-redactor'), { timeout: 15_000 }).toBe(1);
    expect(await step('samples/secretless-redactor')).toBe(2);
    expect(await node('request', 'samples/email-redactor').textContent()).toContain('prio -2000000');

    await panel.getByLabel('Hook events (request)').fill('tools/call, resources/read');
    await panel.getByRole('button', { name: 'Apply hooks' }).click();
    await expect
      .poll(() => panel.getByTestId('hooks-refusal').textContent(), { timeout: 15_000 })
      .toMatch(/Refused: Override for samples\/email-redactor widens its hooks: event 'resources\/read' is not declared/);
    expect(readFileSync(configFile(), 'utf8')).not.toContain('resources/read');
  }, 60_000);

  it('switches an interceptor to audit: drawn as a shadow node', async () => {
    await (await openPanel('request', 'samples/pii-validator')).getByLabel('Mode').selectOption('audit');
    await expect.poll(() => node('request', 'samples/pii-validator').getAttribute('data-mode'), { timeout: 15_000 }).toBe('audit');
    expect(await node('request', 'samples/pii-validator').textContent()).toContain('audit · shadow');
  }, 60_000);

  it('edits an interceptor config with the form generated from its configSchema (bounds checked)', async () => {
    await page.getByTestId('palette-item-samples/prompt-injection-heuristic').click();
    const form = page.getByRole('group', { name: 'Config of samples/prompt-injection-heuristic' });
    const threshold = form.getByLabel('threshold', { exact: true });
    await threshold.fill('2');
    await expect.poll(() => form.getByRole('list', { name: 'Schema problems' }).textContent(), { timeout: 15_000 }).toMatch(/threshold/);
    await threshold.fill('0.8');
    await expect.poll(() => form.getByRole('list', { name: 'Schema problems' }).count(), { timeout: 15_000 }).toBe(0);
  }, 60_000);

  it('saves exactly what the JSON tab shows; the running gateway hot-reloads it under a live session', async () => {
    const saved = JSON.parse(readFileSync(configFile(), 'utf8')) as Record<string, unknown>;
    const url = `http://127.0.0.1:${(saved.listen as { port: number }).port}/mcp`;
    client = await connectHttpClient(url, firstToken(saved));
    const message = 'mail alice@example.com about ssn 123-45-6789';
    // Before saving, the running gateway still has every interceptor disabled.
    expect(text(await client.callTool({ name: 'echo', arguments: { message } }))).toContain('alice@example.com');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByTestId('save-status').textContent(), { timeout: 30_000 }).toMatch(/hot-reloaded, sessions kept/);
    const shown = await jsonTabText();
    const onDisk = readFileSync(configFile(), 'utf8');
    expect(shown).toBe(onDisk);
    expect(onDisk.endsWith('}\n')).toBe(true);
    const config = JSON.parse(onDisk) as { overrides: Record<string, Record<string, unknown>> };
    expect(config.overrides['samples/email-redactor']).toEqual({ priorityHint: -2000000 });
    expect(config.overrides['samples/pii-validator']).toEqual({ mode: 'audit' });
    expect(config.overrides['samples/tool-allowlist']).toEqual({ enabled: false });
    expect(config.overrides['samples/prompt-injection-heuristic']).toEqual({ enabled: false, config: { threshold: 0.8 } });

    // The same client session, now on the saved chain: e-mail redacted, the SSN only audited (not blocked).
    const after = await client.callTool({ name: 'echo', arguments: { message } });
    expect(after.isError).not.toBe(true);
    expect(text(after)).toContain('[EMAIL_REDACTED]');
    expect(text(after)).toContain('123-45-6789');
    // The reload is recorded.
    const log = readFileSync(join(web.dataDir, 'reloads', `${ID}.jsonl`), 'utf8')
      .trim()
      .split('\n');
    expect(log.map((l) => JSON.parse(l) as { restarted: boolean })).toEqual([expect.objectContaining({ restarted: false })]);
  }, 90_000);

  it('shows the path of an invalid config in the JSON tab and saves nothing', async () => {
    const before = readFileSync(configFile(), 'utf8');
    await replaceJsonTabText(before.replace('"mode": "audit"', '"mode": "shadow"'));
    const problems = page.getByTestId('json-problems');
    await expect.poll(() => problems.textContent(), { timeout: 15_000 }).toContain('overrides["samples/pii-validator"].mode');
    expect(await problems.textContent()).toContain('expected "active" or "audit"');
    expect(await page.getByTestId('json-state').textContent()).toBe('1 error');
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await page.keyboard.press('ControlOrMeta+S');

    await replaceJsonTabText(`${before.slice(0, 40)} oops`);
    await expect.poll(() => problems.textContent(), { timeout: 15_000 }).toMatch(/\(root\).*not valid JSON/);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('tab', { name: 'Canvas', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'fix it in the JSON tab' }).waitFor();
    expect(readFileSync(configFile(), 'utf8')).toBe(before);

    // Undo walks back to the saved document (typing pauses may have made one or two undo steps).
    for (let i = 0; i < 2 && !/Saved/.test((await page.getByTestId('save-status').textContent()) ?? ''); i++) {
      await page.getByRole('button', { name: 'Undo' }).click();
    }
    await expect.poll(() => page.getByTestId('save-status').textContent(), { timeout: 15_000 }).toMatch(/Saved/);
    expect(await jsonTabText()).toBe(before);
  }, 60_000);

  it('shows tool-allowlist enabled without a config as a configuration error in the palette, skipped rather than blocking', async () => {
    await page.getByRole('tab', { name: 'Canvas', exact: true }).click();
    const allowlist = page.getByTestId('palette-item-samples/tool-allowlist');
    await allowlist.dragTo(page.getByTestId('chain-canvas'));
    const error = page.getByTestId('palette-config-error-samples/tool-allowlist');
    await error.waitFor({ timeout: 15_000 });
    expect(await error.textContent()).toMatch(/no config is set .*config\.allow is required.*skipped/);
    await expect.poll(() => allowlist.getAttribute('data-reason'), { timeout: 15_000 }).toBe('config-invalid');
    expect(await allowlist.getAttribute('title')).toMatch(/^Configuration error: /);
    expect(await node('request', 'samples/tool-allowlist').count()).toBe(0);
  }, 60_000);

  it('reorders the mutations by dragging one along the lane: new priorities in the draft, the lane redrawn', async () => {
    await page.getByRole('tab', { name: 'Canvas', exact: true }).click();
    // Now: email-redactor (priority -2000000) runs first, secretless-redactor second.
    await expect.poll(() => step('samples/email-redactor'), { timeout: 15_000 }).toBe(1);
    const dragged = await node('request', 'samples/secretless-redactor').boundingBox();
    const target = await node('request', 'samples/email-redactor').boundingBox();
    expect(dragged && target).toBeTruthy();
    await page.mouse.move(dragged!.x + dragged!.width / 2, dragged!.y + 12);
    await page.mouse.down();
    await page.mouse.move(target!.x + 4, target!.y + 12, { steps: 12 });
    await page.mouse.up();
    await expect.poll(() => step('samples/secretless-redactor'), { timeout: 15_000 }).toBe(1);
    expect(await step('samples/email-redactor')).toBe(2);
    const draft = JSON.parse(await jsonTabText()) as { overrides: Record<string, Record<string, unknown>> };
    expect(draft.overrides['samples/secretless-redactor']!.priorityHint).toMatchObject({ request: 10 });
    // email-redactor's response-phase priority is the one its override already had: only the dragged lane moved.
    expect(draft.overrides['samples/email-redactor']!.priorityHint).toEqual({ request: 20, response: -2000000 });
    // A validation has no place in an order: it cannot be dragged.
    await page.getByRole('tab', { name: 'Canvas', exact: true }).click();
    expect(
      await node('request', 'samples/pii-validator').locator('xpath=ancestor-or-self::*[contains(@class,"react-flow__node")][1]').getAttribute('class'),
    ).not.toContain('reorderable');
  }, 60_000);
});
