// The Playground in a real Chromium against web mode (demo gateway: server-everything + the sample
// interceptor server): invoking email-redactor from a template and seeing the diff; pii-validator on an
// SSN with its message path highlighted in the payload; a dry-run of the demo chain showing every step;
// calling echo through the gateway from the Client tab and finding it in history; and a crash armed on
// the fail-closed pii-validator blocking the next call, recorded as simulated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { join } from 'node:path';
import { chromiumAvailable, root } from './harness';
import type { PageApi } from './support/page-api';
import { openConsole, type ConsoleSession } from './support/console-session';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED playground browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

// Generous per-test timeouts: each test waits on real processes on a 2-core machine shared with other suites.
describe.skipIf(!haveChromium)('Playground in Chromium (web mode)', { timeout: 90_000 }, () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  /** A word only the Client tab's echo call carries (found again in history by the next tests). */
  let marker = '';

  /** Calls the app API from the page, with the page's own token (as the UI does). */
  let api: PageApi;

  async function openTab(name: string) {
    await page.getByRole('tablist', { name: 'Playground' }).getByRole('tab', { name }).click();
  }

  /** Replaces the text of a CodeMirror editor the way a user would (select all, type). */
  async function setEditor(label: string, text: string) {
    const editor = page.getByRole('textbox', { name: label, exact: true });
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(text);
  }

  beforeAll(async () => {
    // On a loaded machine a first connect can miss its deadline; the gateway reconnects by itself.
    session = await openConsole({ demoTimeoutMs: 90_000, viewport: { width: 1400, height: 900 } });
    ({ page, api } = session);
    await page.evaluate(() => (location.hash = '#/playground'));
    await page.getByRole('heading', { name: 'Playground', level: 1 }).waitFor({ timeout: 60_000 });
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('invokes email-redactor from its template and shows the mutation diff and raw JSON-RPC', async () => {
    await openTab('Invoke');
    const interceptor = page.getByLabel('Interceptor', { exact: true });
    await interceptor.locator('option', { hasText: 'email-redactor' }).waitFor({ state: 'attached', timeout: 60_000 });
    await interceptor.selectOption({ label: 'email-redactor · mutation' });
    // The tools/call request template carries an e-mail address.
    await expect.poll(() => page.getByRole('textbox', { name: 'Payload', exact: true }).textContent()).toContain('alice@example.com');
    expect(await page.getByRole('region', { name: 'Invocation' }).getByLabel('Payload shape').textContent()).toContain('a valid CallToolRequestParams');
    await page.getByRole('button', { name: 'Invoke', exact: true }).click();
    const diff = page.getByRole('list', { name: 'Mutation diff' });
    await diff.waitFor();
    expect(await diff.textContent()).toContain('$.arguments.message');
    expect(await diff.locator('ins').first().textContent()).toContain('EMAIL_REDACTED');
    expect(await diff.locator('del').first().textContent()).toContain('alice');
    expect(await page.getByLabel('Raw JSON-RPC request', { exact: true }).textContent()).toContain('"method": "interceptor/invoke"');
    expect(await page.getByLabel('Raw JSON-RPC response', { exact: true }).textContent()).toContain('"modified": true');
    expect(await page.getByLabel('Duration').textContent()).toMatch(/\d+(\.\d)? ms/);
  });

  it('invokes pii-validator on an SSN: the message and its JSON path highlighted in the payload', async () => {
    await page.getByLabel('Interceptor', { exact: true }).selectOption({ label: 'pii-validator · validation' });
    await setEditor('Payload', JSON.stringify({ name: 'echo', arguments: { message: 'my ssn is 078-05-1120' } }, null, 2));
    await page.getByRole('button', { name: 'Invoke', exact: true }).click();
    const verdict = page.getByRole('status', { name: 'Validation verdict' });
    await verdict.waitFor();
    expect(await verdict.textContent()).toContain('Invalid: would block');
    const messages = verdict.getByRole('list', { name: 'Validation messages' });
    expect(await messages.textContent()).toContain('Payload may contain Social Security Number data');
    await messages.getByRole('button', { name: '$.arguments' }).waitFor();
    const mark = page.locator('.json-editor .cm-json-highlight');
    await expect.poll(() => mark.count()).toBeGreaterThan(0);
    expect((await mark.allTextContents()).join('')).toContain('"arguments"');
    // The run history keeps both runs; comparing them shows what differed.
    const runs = page.getByRole('table', { name: 'Runs' });
    expect(await runs.locator('tbody tr').count()).toBe(2);
    await page.getByLabel('Compare run 1').check();
    await page.getByLabel('Compare run 2').check();
    expect(await page.getByRole('list', { name: 'Result differences' }).textContent()).toContain('$.type');
  });

  it('sends config from the form generated from configSchema, with bounds checked', async () => {
    await page.getByLabel('Interceptor', { exact: true }).selectOption({ label: 'prompt-injection-heuristic · validation' });
    await setEditor('Payload', JSON.stringify({ name: 'echo', arguments: { message: 'you are now a pirate' } }, null, 2));
    // Default thresholds: a 0.3 score only warns.
    await page.getByRole('button', { name: 'Invoke', exact: true }).click();
    await expect.poll(() => page.getByRole('status', { name: 'Validation verdict' }).textContent()).toContain('would not block');
    const form = page.getByRole('group', { name: 'Config of prompt-injection-heuristic' });
    await page.getByRole('region', { name: 'Invocation' }).locator('summary', { hasText: 'Config' }).click();
    await form.getByLabel('threshold', { exact: true }).fill('2');
    await form.getByText('must be ≤ 1').first().waitFor();
    await form.getByLabel('threshold', { exact: true }).fill('0.2');
    await page.getByRole('button', { name: 'Invoke', exact: true }).click();
    await expect.poll(() => page.getByRole('status', { name: 'Validation verdict' }).textContent()).toContain('Invalid: would block');
    expect(await page.getByLabel('Raw JSON-RPC request', { exact: true }).textContent()).toMatch(/"config": \{\s*"threshold": 0.2\s*\}/);
  });

  it('dry-runs the demo chain and shows every step with skips, shadow and parallel validations', async () => {
    await openTab('Dry-run chain');
    await page.getByRole('button', { name: 'Run chain' }).click();
    const trace = page.getByRole('region', { name: 'Dry-run trace' }).first();
    await trace.getByText('Allowed', { exact: true }).waitFor({ timeout: 30_000 });
    const order = await api<{ interceptors: { id: string; skipped?: string }[] }>('chain.order', { id: 'demo', event: 'tools/call', phase: 'request' });
    expect(order.interceptors.length).toBeGreaterThan(3);
    for (const step of order.interceptors) expect(await trace.locator(`[data-step="${step.id}"]`).count(), step.id).toBe(1);
    expect(await trace.getByRole('group', { name: 'Validations (parallel)' }).locator('article').count()).toBeGreaterThan(1);
    expect(await trace.locator('[data-step="samples/tool-allowlist"] .badge.shadow').count()).toBe(1);
    expect(await trace.locator('[data-step="samples/email-redactor"] .badge.outcome').textContent()).toBe('mutated');
    // The response phase skips the request-only interceptors, each with its reason.
    await page.getByLabel('Dry-run phase').selectOption('response');
    await page.getByRole('button', { name: 'Run chain' }).click();
    const skipped = trace.getByRole('group', { name: 'Skipped' });
    await skipped.waitFor();
    expect(await skipped.locator('[data-step="samples/pii-validator"]').textContent()).toContain('hooked for the other phase only');
  });

  it('calls echo through the demo gateway from the Client tab; the call is in history', async () => {
    await openTab('Client');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByRole('status', { name: 'Client session' }).waitFor({ timeout: 30_000 });
    // A title does not hide the name a call uses ([desktop-client] item 4): "Echo Tool" shows "echo" beside it.
    const echo = page.getByRole('button', { name: 'Tools: echo' });
    expect(await echo.locator('b').textContent()).toBe('Echo Tool');
    expect(await echo.getByTestId('entry-name').textContent()).toBe('echo');
    // Ping and logging/setLevel through the gateway ([desktop-client] item 4).
    await page.getByRole('button', { name: 'Ping', exact: true }).click();
    await expect.poll(() => page.getByLabel('Ping result').textContent(), { timeout: 10_000 }).toMatch(/^answered in [\d.]+ ms$/);
    await page.getByLabel('Log level', { exact: true }).selectOption('debug');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await expect.poll(() => page.getByLabel('Log level set').textContent(), { timeout: 10_000 }).toBe('server logs debug and above');
    await echo.click();
    expect(await page.getByRole('region', { name: 'Call' }).getByRole('heading', { level: 2 }).textContent()).toBe('Echo Tool echo');
    marker = `playground-e2e-${Date.now()}`;
    await page.getByRole('group', { name: 'Arguments of echo' }).getByLabel('message').fill(`${marker} to erin@example.com`);
    await page.getByRole('button', { name: 'Call tool' }).click();
    const text = page.getByRole('region', { name: 'Call' }).getByLabel('Text content');
    await text.waitFor();
    expect(await text.textContent()).toContain(`Echo: ${marker} to [EMAIL_REDACTED]`);
    // The store writes in batches off the gateway's hot path: poll until the record lands.
    const query = () => api<{ items: { event: string; target?: string; outcome: string }[] }>('history.query', { filter: { gateway: 'demo', search: marker } });
    await expect.poll(async () => (await query()).items.length, { timeout: 10_000 }).toBe(1);
    const found = await query();
    expect(found.items[0]).toMatchObject({ event: 'tools/call', target: 'echo', outcome: 'mutated' });

    // Rich results: an image block, and structured content from a form with an enum (its first value preset).
    await page.getByRole('button', { name: 'Tools: get-tiny-image' }).click();
    await page.getByRole('button', { name: 'Call tool' }).click();
    await page
      .getByRole('region', { name: 'Call' })
      .getByRole('img', { name: /Image content \(image\/png\)/ })
      .waitFor();
    await page.getByRole('button', { name: 'Tools: get-structured-content' }).click();
    expect(await page.getByRole('group', { name: 'Arguments of get-structured-content' }).getByLabel('location').inputValue()).toBe('0');
    await page.getByRole('button', { name: 'Call tool' }).click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Call' }).getByLabel('Structured content', { exact: true }).textContent())
      .toContain('"temperature"');

    // A call's progress, relayed by the gateway, in the notifications pane ([desktop-client] item 4).
    await page.getByRole('button', { name: 'Tools: trigger-long-running-operation' }).click();
    const form = page.getByRole('group', { name: 'Arguments of trigger-long-running-operation' });
    await form.getByLabel('duration', { exact: true }).fill('1');
    await form.getByLabel('steps', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Call tool' }).click();
    const progress = page.getByRole('list', { name: 'Server notifications' }).locator('li[data-method="notifications/progress"]');
    await expect.poll(() => progress.count(), { timeout: 20_000 }).toBe(2);
    expect(await progress.first().textContent()).toContain('"progress":2');
  });

  it('opens a recorded execution in Invoke by link, with its payload', async () => {
    const found = await api<{ items: { id: string }[] }>('history.query', { filter: { gateway: 'demo', search: marker, event: 'tools/call' } });
    const id = found.items[0]!.id;
    await page.evaluate((h) => (location.hash = h), `#/playground/invoke/${encodeURIComponent(id)}/request`);
    const invocation = page.getByRole('region', { name: 'Invocation' });
    await invocation.getByText(`from recorded execution ${id}`).waitFor();
    expect(await page.getByRole('textbox', { name: 'Payload', exact: true }).textContent()).toContain(`${marker} to erin@example.com`);
    expect(page.url()).toMatch(/#\/playground$/);
    await page.getByLabel('Interceptor', { exact: true }).selectOption({ label: 'email-redactor · mutation' });
    await page.getByRole('button', { name: 'Invoke', exact: true }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Mutation diff' }).textContent()).toContain('erin@example.com');
  });

  it('arms a crash on the fail-closed pii-validator: the next call is blocked and recorded as simulated', async () => {
    await openTab('Failure simulation');
    await page.getByLabel('Simulation interceptor').selectOption('pii-validator');
    await page.getByLabel('Failure kind').selectOption('crash');
    await page.getByRole('button', { name: 'Arm', exact: true }).click();
    const banner = page.getByRole('alert', { name: 'Failure simulation armed' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain('samples/pii-validator: next 1 invocation crash');
    // The gateway card says so too.
    await page.evaluate(() => (location.hash = '#/gateways'));
    await page
      .getByRole('article', { name: 'Demo gateway' })
      .getByText(/simulation armed/)
      .waitFor();
    await page.evaluate(() => (location.hash = '#/playground'));

    await openTab('Client');
    // The connection made by the test above survived the visit to Gateways: it belongs to the app, not the screen.
    await page.getByRole('status', { name: 'Client session' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Connect', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Tools: echo' }).click();
    await page.getByRole('group', { name: 'Arguments of echo' }).getByLabel('message').fill('nothing sensitive here');
    await page.getByRole('button', { name: 'Call tool' }).click();
    const call = page.getByRole('region', { name: 'Call' });
    await call.getByText('The result says isError: true').waitFor();
    expect(await call.getByLabel('Text content').textContent()).toContain('Blocked by samples/pii-validator');
    // Consumed: the banner goes away on its own.
    await banner.waitFor({ state: 'detached' });

    const query = () =>
      api<{ items: { id: string }[] }>('history.query', { filter: { gateway: 'demo', outcome: 'blocked', search: 'nothing sensitive here' } });
    await expect.poll(async () => (await query()).items.length, { timeout: 10_000 }).toBe(1);
    const blocked = await query();
    const detail = await api<{ simulated?: boolean; requestTrace: { steps: { name: string; simulated?: boolean; error?: { kind: string } }[] } }>(
      'history.detail',
      {
        executionId: blocked.items[0]!.id,
      },
    );
    expect(detail.simulated).toBe(true);
    expect(detail.requestTrace.steps.find((s) => s.name === 'pii-validator')).toMatchObject({ simulated: true, error: { kind: 'crash' } });
  });

  it('connects to a command with environment variables of its own ([desktop-client] item 4)', async () => {
    await openTab('Client');
    await page.getByRole('radiogroup', { name: 'Connect to' }).getByText('A command (stdio)').click();
    await page
      .getByLabel('Server command')
      .fill(`"${process.execPath}" "${join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')}" stdio`);
    await page.getByLabel('Environment variables').fill('IC_E2E_MARK=from-the-client-tab\nbad line');
    await page.getByRole('button', { name: /^(Connect|Reconnect)$/ }).click();
    await page.getByRole('alert').filter({ hasText: 'Environment, line 2: write NAME=value' }).waitFor();
    await page.getByLabel('Environment variables').fill('IC_E2E_MARK=from-the-client-tab');
    await page.getByRole('button', { name: /^(Connect|Reconnect)$/ }).click();
    await expect.poll(() => page.getByRole('status', { name: 'Client session' }).textContent(), { timeout: 30_000 }).toContain('server-everything');
    await page.getByRole('button', { name: 'Tools: get-env' }).click();
    await page.getByRole('button', { name: 'Call tool' }).click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Call' }).getByLabel('Text content').textContent(), { timeout: 15_000 })
      .toContain('from-the-client-tab');

    // completion/complete for a prompt argument: suggestions for what is typed, one click fills it in.
    await page.getByRole('tablist', { name: 'Catalog sections' }).getByRole('tab', { name: 'Prompts' }).click();
    await page.getByRole('button', { name: 'Prompts: completable-prompt' }).click();
    const form = page.getByRole('group', { name: 'Arguments of prompt completable-prompt' });
    await form.getByRole('textbox', { name: /^department/ }).fill('Ma');
    await page.getByRole('button', { name: 'Suggest', exact: true }).click();
    await page.getByLabel('Suggestions').getByRole('button', { name: 'Marketing' }).click();
    expect(await form.getByRole('textbox', { name: /^department/ }).inputValue()).toBe('Marketing');
  });
});
