// The breakpoints debugger in a real Chromium against web mode: real MCP clients call the demo gateway,
// the Paused screen (rail badge, notification, list, detail) decides. Pause on tools/call, edit the
// arguments, continue, the backend echoes the edit; block with a message; answer with a mock; step
// through the chain; a pause that times out continues by itself; another client is not held meanwhile;
// Traffic's waterfall shows the pause and the edit's diff.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/client';
import { chromiumAvailable, type WebModeRun } from './harness';
import type { PageApi } from './support/page-api';
import { connectDemoClient, openConsole, type ConsoleSession } from './support/console-session';
import { waitFor } from '../support/wait-for';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED breakpoints browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

const text = (r: unknown) => ((r as { content: { text?: string }[] }).content[0]?.text ?? '') as string;

describe.skipIf(!haveChromium)('Breakpoints in Chromium (web mode)', { timeout: 120_000 }, () => {
  let session: ConsoleSession | undefined;
  let web: WebModeRun;
  let page: Page;
  let api: PageApi;
  let alice: Client;
  let other: Client;

  const detail = () => page.getByRole('region', { name: 'Paused call', exact: true });
  const badge = () => page.getByRole('navigation', { name: 'Main' }).locator('.rail-badge');
  async function setEditor(label: string, value: string) {
    const editor = page.getByRole('textbox', { name: label, exact: true });
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(value);
  }
  /** Waits until the detail shows a pause at this point (its facts line says where). */
  async function pausedAt(words: string) {
    await expect
      .poll(async () => (await detail().count()) > 0 && ((await detail().locator('.paused-facts').textContent()) ?? ''), { timeout: 20_000 })
      .toContain(words);
  }
  async function addBreakpoint(spec: string, options: { seconds?: number } = {}) {
    const form = page.getByRole('group', { name: 'New breakpoint' });
    await form.getByRole('textbox', { name: 'Method and target' }).fill(spec);
    if (options.seconds) await form.getByRole('spinbutton', { name: 'Timeout seconds' }).fill(String(options.seconds));
    await form.getByRole('button', { name: 'Add breakpoint' }).click();
    await page.getByRole('table', { name: 'Breakpoints of this gateway' }).getByText(spec).first().waitFor();
  }
  async function removeBreakpoints() {
    await api('breakpoints.set', { id: 'demo', live: [] });
  }

  beforeAll(async () => {
    session = await openConsole({ demoTimeoutMs: 90_000, viewport: { width: 1440, height: 1000 } });
    ({ web, page, api } = session);
    alice = await connectDemoClient(web);
    other = await connectDemoClient(web);
    await page.evaluate(() => (location.hash = '#/paused'));
    await page.getByRole('heading', { name: 'Paused calls', level: 1 }).waitFor();
  }, 180_000);

  afterAll(async () => {
    await alice?.close();
    await other?.close();
    await session?.close();
  });

  it('pauses tools/call, shows it (badge, notification), edit & continue reaches the backend; another client flows meanwhile', async () => {
    await addBreakpoint('tools/call:echo');
    const call = alice.callTool({ name: 'echo', arguments: { message: 'typed by the client' } });
    await pausedAt('request, before the chain');
    await expect.poll(() => badge().textContent()).toBe('1');
    await page.getByRole('status', { name: 'Call paused' }).waitFor();
    // Another client's call is answered while this one is held (the pause is still on screen after it).
    expect(text(await other.callTool({ name: 'get-sum', arguments: { a: 20, b: 22 } }))).toContain('42');
    expect(await detail().count()).toBe(1);

    await setEditor('Payload at this point (params)', JSON.stringify({ name: 'echo', arguments: { message: 'edited in the browser' } }, null, 2));
    await detail().getByRole('button', { name: 'Edit & continue' }).click();
    expect(text(await call)).toBe('Echo: edited in the browser');
    await expect.poll(() => badge().count()).toBe(0);
  });

  it('an invalid edit cannot be sent; block with a message answers the client with it', async () => {
    const call = alice.callTool({ name: 'echo', arguments: { message: 'to be blocked' } });
    await pausedAt('request, before the chain');
    await setEditor('Payload at this point (params)', JSON.stringify({ arguments: { message: 'no name' } }));
    await detail().getByRole('list', { name: 'Payload problems' }).waitFor();
    expect(await detail().getByRole('button', { name: 'Edit & continue' }).isDisabled()).toBe(true);
    await detail().getByRole('textbox', { name: 'Block message' }).fill('held for review');
    await detail().getByRole('button', { name: 'Block', exact: true }).click();
    const result = await call;
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('Blocked by breakpoint/tools/call:echo (request): held for review');
  });

  it('answers with a mock without calling the backend', async () => {
    const call = alice.callTool({ name: 'echo', arguments: { message: 'never reaches the backend' } });
    await pausedAt('request, before the chain');
    await detail().getByRole('button', { name: 'Answer…' }).click();
    await setEditor('Mock result', JSON.stringify({ content: [{ type: 'text', text: 'a mock from the console' }] }));
    await detail().getByRole('button', { name: 'Send this answer' }).click();
    expect(text(await call)).toBe('a mock from the console');
  });

  it('steps through the chain: one pause before each interceptor, with what ran so far', async () => {
    const call = alice.callTool({ name: 'echo', arguments: { message: 'step me' } });
    await pausedAt('request, before the chain');
    const interceptors: string[] = [];
    for (let i = 0; i < 20; i++) {
      const before = (await detail().locator('.paused-facts').textContent()) ?? '';
      if (before.includes('request, after the chain')) break;
      await detail().getByRole('button', { name: 'Step', exact: true }).click();
      await expect.poll(async () => (await detail().locator('.paused-facts').textContent()) ?? '', { timeout: 20_000 }).not.toBe(before);
      const facts = (await detail().locator('.paused-facts').textContent()) ?? '';
      const m = /stepping, before (\S+)/.exec(facts);
      if (m) interceptors.push(m[1]!);
    }
    expect(interceptors.length).toBeGreaterThan(1);
    expect(interceptors).toContain('samples/pii-validator');
    // The interceptors that ran are listed with their input and result, and the request trace is shown.
    await detail().getByRole('region', { name: 'Request phase so far' }).waitFor();
    await detail().getByRole('button', { name: 'Continue', exact: true }).click();
    expect(text(await call)).toBe('Echo: step me');
  });

  it('a pause nobody decides continues by itself; Traffic shows the pauses and the edit diff', async () => {
    await removeBreakpoints();
    await addBreakpoint('tools/call:get-sum', { seconds: 1 });
    expect(text(await alice.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } }))).toContain('3');
    await removeBreakpoints();

    type Row = { id: string; target?: string };
    const find = async (search: string) => (await api<{ items: Row[] }>('history.query', { filter: { gateway: 'demo', event: 'tools/call', search } })).items;
    const edited = await waitFor(async () => (await find('edited in the browser'))[0], 20_000, 'the edited call in history', 200);
    await page.evaluate((id) => (location.hash = `#/traffic/${id}`), edited.id);
    const pauses = page.getByRole('region', { name: 'Breakpoint pauses' });
    await pauses.waitFor();
    expect(await pauses.textContent()).toContain('edited and continued by you');
    const diff = (await pauses.getByRole('list', { name: 'Edit by you' }).textContent()) ?? '';
    expect(diff).toContain('$.arguments.message');
    expect(diff).toContain('browser');

    await waitFor(
      async () => (await api<{ items: Row[] }>('history.query', { filter: { gateway: 'demo', target: 'get-sum' } })).items.length >= 2,
      20_000,
      'the two get-sum calls in history',
      200,
    );
    const all = await api<{ items: Row[] }>('history.query', { filter: { gateway: 'demo', target: 'get-sum' } });
    const ids = all.items.map((r) => r.id);
    let shown = '';
    for (const id of ids) {
      await page.evaluate((i) => (location.hash = `#/traffic/${i}`), id);
      const region = page.getByRole('region', { name: 'Breakpoint pauses' });
      if (
        await region.waitFor({ timeout: 3000 }).then(
          () => true,
          () => false,
        )
      ) {
        shown = (await region.textContent()) ?? '';
        break;
      }
    }
    expect(shown).toContain('continued by timeout');
    expect(shown).toContain('timed out');
  });
});
