// Messages in a real Chromium against web mode (demo gateway: server-everything behind the sample
// interceptor server): the gateway's own health pings to the interceptor server (every 15 s) are left out
// of the list by default and shown with "Show health pings" (and do not date the gateway's own entry in the
// session list), and the Method filter leaves a method out
// with a leading minus (`-tools/call`). Both are store queries, so the API answers the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/client';
import { chromiumAvailable } from './harness';
import { waitForDemoGateway, type PageApi } from './support/page-api';
import { openConsole, type ConsoleSession } from './support/console-session';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED messages health ping tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

type Page_ = { items: { method?: string; side: string; direction: string; kind: string }[] };

describe.skipIf(!haveChromium)('Messages: health pings and method exclusions in Chromium (web mode)', () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  let api: PageApi;
  let client: Client;

  const table = () => page.getByRole('table', { name: 'Messages' });
  const rows = () => table().locator('.mrow[data-id]');
  const methods = async () => new Set(await rows().locator('.c-method').allTextContents());

  beforeAll(async () => {
    session = await openConsole({ demoClient: true });
    ({ page, api } = session);
    client = session.client!;
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('hides health pings by default, shows them with the toggle, and a -method filter leaves that method out', { timeout: 150_000 }, async () => {
    await waitForDemoGateway(api);
    await client.callTool({ name: 'echo', arguments: { message: 'health ping test' } });
    // The gateway pings the samples server 15 s after connecting, then every 15 s: wait for one recorded.
    const pings = { gateway: 'demo', method: 'ping', side: 'interceptor', healthPings: true };
    await expect
      .poll(async () => (await api<Page_>('messages.query', { filter: pings, limit: 10 })).items.length, { timeout: 60_000, interval: 1000 })
      .toBeGreaterThanOrEqual(2);
    // By default the store leaves them out.
    expect((await api<Page_>('messages.query', { filter: { gateway: 'demo', method: 'ping', side: 'interceptor' }, limit: 10 })).items).toEqual([]);
    // The session list dates the gateway's own entry by its own traffic (discovery at start), not by the pings
    // that go on every 15 s, unless they are shown.
    type Sessions = { sessionId: string | null; lastAt: string }[];
    const newestPing = (await api<{ items: { at: string }[] }>('messages.query', { filter: pings, limit: 1 })).items[0]!.at;
    const own = (list: Sessions) => list.find((s) => s.sessionId === null);
    expect(own(await api<Sessions>('messages.sessions', { gateway: 'demo', healthPings: true }))!.lastAt >= newestPing).toBe(true);
    const dated = own(await api<Sessions>('messages.sessions', { gateway: 'demo' }));
    expect(dated === undefined || dated.lastAt < newestPing, JSON.stringify(dated)).toBe(true);

    await page.getByRole('link', { name: 'Messages' }).click();
    await page.getByRole('heading', { name: 'Messages', level: 1 }).waitFor({ timeout: 30_000 });
    await table().waitFor();
    await expect.poll(() => methods(), { timeout: 15_000 }).toContain('tools/call');
    expect(await methods()).not.toContain('ping');

    // Only pings: none shown until the toggle is on.
    const method = page.getByRole('combobox', { name: 'Method' });
    await method.fill('ping');
    await method.press('Enter');
    await page.waitForTimeout(1000);
    expect(await rows().count()).toBe(0);
    const toggle = page.getByRole('checkbox', { name: 'Show health pings' });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await expect.poll(() => rows().count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    expect(await methods()).toEqual(new Set(['ping']));
    expect(await rows().locator('.c-hop', { hasText: 'gateway → samples' }).count()).toBeGreaterThan(0);
    await toggle.uncheck();
    await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(0);

    // A method left out: every other method stays.
    await method.fill('-tools/call');
    await method.press('Enter');
    await expect
      .poll(
        async () => {
          const m = await methods();
          return { callShown: m.has('tools/call'), others: m.size > 0 };
        },
        { timeout: 15_000 },
      )
      .toEqual({ callShown: false, others: true });
    expect(await methods()).toContain('interceptor/invoke');
  });
});
