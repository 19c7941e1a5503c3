// The Messages view in a real Chromium against web mode (demo gateway: server-everything behind the sample
// interceptor server, recording into SQLite), with a call sent by a real MCP client: the call's messages
// appear live on every side (client ↔ gateway, gateway ↔ backend, gateway ↔ interceptor servers), the
// side and method filters narrow the list (the method with suggestions from the data), a message opens
// with its JSON, its "Open execution" link lands on the execution in Traffic, and the execution's
// "Messages" link comes back to exactly its messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/client';
import { chromiumAvailable } from './harness';
import type { PageApi } from './support/page-api';
import { openConsole, type ConsoleSession } from './support/console-session';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED messages browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('Messages in Chromium (web mode)', () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  let api: PageApi;
  let client: Client;

  const table = () => page.getByRole('table', { name: 'Messages' });
  const rows = () => table().locator('.mrow[data-id]');
  const hops = async () =>
    new Set(await rows().evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.side}:${(e as HTMLElement).dataset.direction}`)));

  beforeAll(async () => {
    session = await openConsole({ demoClient: true });
    ({ page, api } = session);
    client = session.client!;
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('shows a call live on every side, filters it, and opens its execution in Traffic', { timeout: 120_000 }, async () => {
    await page.getByRole('link', { name: 'Messages' }).click();
    await page.getByRole('heading', { name: 'Messages', level: 1 }).waitFor({ timeout: 30_000 });
    await table().waitFor();

    // The page is open before the call: its messages arrive by pushed events.
    await client.callTool({ name: 'echo', arguments: { message: 'messages view for alice@example.com' } });
    const echoRequest = rows()
      .filter({ has: page.locator('.c-method', { hasText: /^tools\/call$/ }) })
      .filter({ hasText: 'messages view for' });
    await expect.poll(() => echoRequest.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    // The list is windowed (only rows in view exist), so each side is looked at through the side filter.
    for (const side of ['client', 'backend', 'interceptor']) {
      await page.getByRole('combobox', { name: 'Side' }).selectOption(side);
      await expect
        .poll(async () => ({ n: await rows().count(), sides: [...new Set([...(await hops())].map((h) => h.split(':')[0]))] }), { timeout: 15_000 })
        .toMatchObject({ n: expect.any(Number) as number, sides: [side] });
      const directions = new Set(await rows().evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.direction)));
      expect(directions, side).toEqual(new Set(['in', 'out']));
    }
    // The hop column names the interceptor server.
    expect(await rows().locator('.c-hop', { hasText: 'gateway → samples' }).count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Clear side filter' }).click();

    // The client's session is in the list; picking it keeps the call's messages.
    const session = page.getByRole('navigation', { name: 'Sessions' }).locator('.msg-session:not([data-session="all"]):not([data-session="-"])').first();
    await session.click();
    await expect.poll(() => page.evaluate(() => location.hash), { timeout: 10_000 }).toMatch(/^#\/messages\/demo\/[0-9a-f-]{36}$/);
    await expect.poll(() => echoRequest.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);

    // Notifications are recorded: the client's initialized, on both of its hops.
    await page.getByRole('combobox', { name: 'Kind' }).selectOption('notification');
    const initialized = rows().filter({ has: page.locator('.c-method', { hasText: 'notifications/initialized' }) });
    await expect.poll(() => initialized.count(), { timeout: 15_000 }).toBe(2);
    await page.getByRole('button', { name: 'Clear kind filter' }).click();

    // Method filter, picked from the suggestions the recorded data offers.
    const method = page.getByRole('combobox', { name: 'Method' });
    await method.click();
    await method.fill('tools/c');
    await page.getByRole('listbox', { name: 'Method suggestions' }).getByRole('option', { name: 'tools/call' }).click();
    await expect.poll(async () => new Set(await rows().locator('.c-method').allTextContents()), { timeout: 15_000 }).toEqual(new Set(['tools/call']));
    expect(await hops()).toEqual(new Set(['client:in', 'client:out', 'backend:out', 'backend:in']));

    // The client's request: its JSON, then its execution in Traffic.
    await echoRequest
      .and(rows().filter({ has: page.locator('.c-hop', { hasText: 'client → gateway' }) }))
      .first()
      .click();
    const detail = page.getByRole('region', { name: 'Message detail' });
    await detail.getByLabel('Message JSON').filter({ hasText: '"messages view for alice@example.com"' }).waitFor({ timeout: 15_000 });
    expect(await detail.getByRole('button', { name: 'Replay' }).count()).toBe(1);
    await detail.getByRole('link', { name: 'Open execution' }).click();
    await page.getByRole('heading', { name: 'Traffic', level: 1 }).waitFor({ timeout: 15_000 });
    const execution = page.getByRole('complementary', { name: 'Execution detail' });
    await execution.waitFor({ timeout: 15_000 });
    const executionId = await page.evaluate(() => decodeURIComponent(location.hash.split('/')[2] ?? ''));
    expect((await execution.locator('.detail-id').textContent())!).toBe(executionId);
    const recorded = await api<{ event: string; target: string }>('history.detail', { executionId });
    expect(recorded).toMatchObject({ event: 'tools/call', target: 'echo' });

    // And back: the execution's Messages link lists exactly its messages, interceptor invokes included.
    await execution.getByRole('link', { name: 'Messages' }).click();
    await expect.poll(() => page.evaluate(() => location.hash), { timeout: 10_000 }).toBe(`#/messages/demo/execution/${executionId}`);
    await expect
      .poll(async () => [...(await hops())].sort(), { timeout: 15_000 })
      .toEqual(['backend:in', 'backend:out', 'client:in', 'client:out', 'interceptor:in', 'interceptor:out']);
    const linked = await api<{ items: { executionId?: string }[] }>('messages.query', { filter: { gateway: 'demo', executionId }, limit: 1000 });
    expect(linked.items.every((m) => m.executionId === executionId)).toBe(true);
    expect(linked.items.length).toBeGreaterThanOrEqual(6);
  });
});
