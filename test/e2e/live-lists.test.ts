// The live lists (Messages and Traffic) in a real Chromium against web mode: a row recorded after the list
// last refreshed but sorting below its top row (a message or call timed earlier than the top row and
// recorded later, as a second writer of the same SQLite history does) appears with the next live refresh,
// not only after a reload. The late row is written by the store's own recorder into the console's history
// file; the refresh is set off by a real call through the demo gateway.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/client';
import { SqliteHistoryWriter } from '../../src/main/history/sqlite';
import type { Recorder } from '../../src/shared/trace/execution';
import { chromiumAvailable, type WebModeRun } from './harness';
import type { PageApi } from './support/page-api';
import { openConsole, type ConsoleSession } from './support/console-session';
import { makeExecution } from '../store/fixtures';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED live list browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('Live lists in Chromium (web mode)', () => {
  let session: ConsoleSession | undefined;
  let web: WebModeRun;
  let page: Page;
  let api: PageApi;
  let client: Client;

  /** Writes records into the console's history file from this process, then closes (everything committed). */
  async function recordLate(write: (recorder: Recorder) => void): Promise<void> {
    const recorder = SqliteHistoryWriter.open(join(web.dataDir, 'history.db'), { writerThread: false });
    write(recorder);
    await recorder.close();
  }

  /** Sends an echo call and waits until its execution is in the store; its id. */
  async function callAndWaitForExecution(text: string): Promise<string> {
    await client.callTool({ name: 'echo', arguments: { message: text } });
    let id: string | undefined;
    await expect
      .poll(async () => (id = (await api<{ items: { id: string }[] }>('history.query', { filter: { search: text }, limit: 1 })).items[0]?.id), {
        timeout: 30_000,
      })
      .toBeDefined();
    return id!;
  }

  beforeAll(async () => {
    // Tall: the late row sits a few rows below the top, and the lists are windowed (rows in view only).
    session = await openConsole({ demoClient: true, viewport: { width: 1440, height: 1400 } });
    ({ web, page, api } = session);
    client = session.client!;
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('Messages: a message recorded below the top row appears with the next refresh', { timeout: 90_000 }, async () => {
    await page.getByRole('link', { name: 'Messages' }).click();
    const table = page.getByRole('table', { name: 'Messages' });
    await table.waitFor({ timeout: 30_000 });
    await client.callTool({ name: 'echo', arguments: { message: 'live list, first call' } });
    await table.locator('.mrow[data-id]', { hasText: 'live list, first call' }).first().waitFor({ timeout: 30_000 });

    // The list is settled: its top row is the store's newest message (the late one must sort below it).
    type Top = { id: string; at: string };
    let top: Top | undefined;
    await expect
      .poll(
        async () => {
          top = (await api<{ items: Top[] }>('messages.query', { filter: { gateway: 'demo' }, limit: 1 })).items[0];
          return (
            (await table
              .locator('.mrow[data-index="0"]')
              .getAttribute('data-id', { timeout: 1000 })
              .catch(() => null)) === top?.id
          );
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    const late = randomUUID();
    await recordLate((r) =>
      r.recordMessage!({
        id: late,
        gateway: 'demo',
        sessionId: 'late-session',
        at: Date.parse(top!.at) - 1,
        side: 'client',
        direction: 'in',
        kind: 'notification',
        method: 'notifications/late',
        message: { jsonrpc: '2.0', method: 'notifications/late', params: { note: 'recorded late' } },
      }),
    );
    // In the store it sorts below the row that was on top.
    const stored = (await api<{ items: { id: string }[] }>('messages.query', { filter: { gateway: 'demo' }, limit: 200 })).items.map((m) => m.id);
    expect(stored.indexOf(late)).toBeGreaterThan(stored.indexOf(top!.id));

    // A new call pushes `messages.new`; the refresh it starts must bring the late message too.
    await client.callTool({ name: 'echo', arguments: { message: 'live list, second call' } });
    await table.locator('.mrow[data-id]', { hasText: 'live list, second call' }).first().waitFor({ timeout: 30_000 });
    await expect.poll(() => table.locator(`.mrow[data-id="${late}"]`).count(), { timeout: 15_000 }).toBe(1);
    // Each row once: the merge keeps no duplicate of a row already shown.
    const ids = await table.locator('.mrow[data-id]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('Traffic: an execution recorded below the top row appears with the next refresh', { timeout: 90_000 }, async () => {
    await page.getByRole('link', { name: 'Traffic' }).click();
    const table = page.getByRole('table', { name: 'Executions' });
    await table.waitFor({ timeout: 30_000 });
    const first = await callAndWaitForExecution('trafficlivefirst');
    const top = (await api<{ items: { id: string; startedAt: string }[] }>('history.query', { filter: {}, limit: 1 })).items[0]!;
    expect(top.id).toBe(first);
    await expect
      .poll(
        () =>
          table
            .locator('.trow[data-index="0"]')
            .getAttribute('data-id', { timeout: 1000 })
            .catch(() => null),
        { timeout: 30_000 },
      )
      .toBe(top.id);

    const late = randomUUID();
    await recordLate((r) => r.recordExecution(makeExecution({ id: late, gateway: 'demo', startedAt: new Date(Date.parse(top.startedAt) - 1).toISOString() })));
    const stored = (await api<{ items: { id: string }[] }>('history.query', { filter: {}, limit: 100 })).items.map((e) => e.id);
    expect(stored.indexOf(late)).toBeGreaterThan(stored.indexOf(top.id));

    const second = await callAndWaitForExecution('trafficlivesecond');
    await table.locator(`.trow[data-id="${second}"]`).waitFor({ timeout: 30_000 });
    await expect.poll(() => table.locator(`.trow[data-id="${late}"]`).count(), { timeout: 15_000 }).toBe(1);
    const ids = await table.locator('.trow[data-id]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.id));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
