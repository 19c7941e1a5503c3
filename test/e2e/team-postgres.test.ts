// Many gateways, one history: three headless gateway processes (the built CLI, each its own gateway id
// and host name) record into one real PostgreSQL at once under load, and a console in web mode pointed
// at the same database (`web --db postgres://…`) lists the executions of all three in a real Chromium,
// and filters them by gateway and by host. Every call answered is recorded exactly once, and so is every
// JSON-RPC message the gateways captured, which the console's Messages screen lists from the same database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { LineClient, cliPath, rawBackend, writeConfig } from '../gateway/helpers';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../fixtures/postgres-cluster';
import { chromiumAvailable, ensureRendererBuilt, launchChromium, startWebMode, type WebModeRun } from './harness';
import { pageApi } from './support/page-api';

const pgSkip = postgresUnavailable();
const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED team PostgreSQL browser test: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

const GATEWAYS = ['edge-eu', 'edge-us', 'edge-ap'];
const CALLS = 200; // per gateway
const IN_FLIGHT = 50;
const SECRET = 's3cr3t-pw';
const withPassword = (u: string) => u.replace('postgres://postgres@', `postgres://postgres:${SECRET}@`);

describe.skipIf(pgSkip !== undefined || !haveChromium)('three gateways recording into one PostgreSQL, seen in one console', { timeout: 180_000 }, () => {
  let cluster: PostgresCluster;
  let url: string;
  let web: WebModeRun | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const gateways: LineClient[] = [];

  beforeAll(async () => {
    cluster = await startPostgres();
    url = await cluster.createDatabase('team_history');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
    for (const g of gateways) await g.stop().catch(() => undefined);
    cluster?.stop();
  });

  it('records every call of every gateway exactly once, with its gateway and host', async () => {
    const config = writeConfig({ serverInfo: { name: 'team-gateway', version: '1' }, backend: rawBackend(), listen: { transport: 'stdio' } });
    GATEWAYS.forEach((id, i) => {
      gateways.push(
        new LineClient([cliPath, 'gateway', '--config', config, '--gateway-id', id, '--db', url, '--quiet'], {
          ...process.env,
          INTERCEPTOR_CONSOLE_DB: '',
          INTERCEPTOR_CONSOLE_HOST: `host-${i + 1}`,
        }),
      );
    });
    await Promise.all(gateways.map((g) => g.initialize()));
    // All three at once, IN_FLIGHT calls outstanding per gateway.
    await Promise.all(
      gateways.map(async (g, gi) => {
        for (let start = 0; start < CALLS; start += IN_FLIGHT) {
          const ids = Array.from({ length: Math.min(IN_FLIGHT, CALLS - start) }, (_, k) => start + k);
          for (const id of ids) g.send({ id, method: 'tools/call', params: { name: 'echo', arguments: { text: `${GATEWAYS[gi]} call ${id}` } } });
          const answers = await Promise.all(ids.map((id) => g.response(id, 60_000)));
          for (const a of answers) expect(a.error, JSON.stringify(a)).toBeUndefined();
        }
      }),
    );
    // A clean stop writes what is still queued (the recorder's close), then the process exits.
    for (const g of gateways) await g.stop();
    for (const g of gateways) expect(g.exit?.code, g.stderr).toBe(0);

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const rows = (
        await db.query<{ gateway: string; host: string; jsonrpc_id: string; n: number }>(
          `SELECT g.name AS gateway, e.host, (e.record_json::json ->> 'jsonrpcId') AS jsonrpc_id, count(*)::int AS n
           FROM executions e JOIN gateways g ON g.id = e.gateway_id WHERE e.event = 'tools/call' GROUP BY 1, 2, 3`,
        )
      ).rows;
      for (const [i, id] of GATEWAYS.entries()) {
        const mine = rows.filter((r) => r.gateway === id);
        // Exactly once: one row per JSON-RPC id sent, none missing, none twice.
        expect(mine.every((r) => r.n === 1 && r.host === `host-${i + 1}`)).toBe(true);
        expect(mine.map((r) => Number(r.jsonrpc_id)).sort((a, b) => a - b)).toEqual(Array.from({ length: CALLS }, (_, k) => k));
      }
      // Messages are captured too (captureMessages is on by default): each call's request as the client
      // sent it, exactly once per gateway, with the host that recorded it and a link to its execution.
      const messages = (
        await db.query<{ gateway: string; host: string; jsonrpc_id: number; n: number; linked: number }>(
          `SELECT g.name AS gateway, m.host, (m.jsonrpc_id #>> '{}')::int AS jsonrpc_id, count(*)::int AS n,
             count(*) FILTER (WHERE EXISTS (SELECT 1 FROM executions e WHERE e.uuid = m.execution_uuid))::int AS linked
           FROM messages m JOIN gateways g ON g.id = m.gateway_id
           WHERE m.side = 'client' AND m.direction = 'in' AND m.kind = 'request' AND m.method = 'tools/call' GROUP BY 1, 2, 3`,
        )
      ).rows;
      for (const [i, id] of GATEWAYS.entries()) {
        const mine = messages.filter((r) => r.gateway === id);
        expect(mine.every((r) => r.n === 1 && r.linked === 1 && r.host === `host-${i + 1}`)).toBe(true);
        expect(mine.map((r) => r.jsonrpc_id).sort((a, b) => a - b)).toEqual(Array.from({ length: CALLS }, (_, k) => k));
      }
    } finally {
      await db.end();
    }
  });

  it('lists all three gateways in the console (web mode on the same database) and filters by gateway and by host', async () => {
    ensureRendererBuilt();
    // Trust auth ignores the password, so it only has to stay out of every log line, page and answer.
    web = await startWebMode({ demo: false, db: withPassword(url) });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${web.openUrl}`);
    await page.evaluate(() => (location.hash = '#/traffic'));
    await page.getByRole('heading', { name: 'Traffic', level: 1 }).waitFor();
    const rows = page.getByRole('table', { name: 'Executions' }).locator('.trow[data-id]');
    const gatewaysShown = async () =>
      new Set(
        await rows
          .locator('.c-gateway')
          .allTextContents()
          .then((t) => t.map((x) => x.trim())),
      );
    // The newest page holds whichever gateway answered last; the filter brings up each one's executions.
    await expect.poll(async () => (await gatewaysShown()).size, { timeout: 30_000 }).toBeGreaterThan(0);
    for (const id of GATEWAYS) {
      await page.getByRole('combobox', { name: 'Gateway' }).selectOption(id);
      await expect.poll(async () => [...(await gatewaysShown())], { timeout: 30_000 }).toEqual([id]);
      expect(await rows.count()).toBeGreaterThan(0);
      // Each row names the host whose gateway recorded it.
      expect(await rows.first().locator('.c-gateway').getAttribute('title')).toBe(`${id} on host-${GATEWAYS.indexOf(id) + 1}`);
    }
    // The Host chip: back to any gateway, then one host shows only the rows its gateway recorded.
    await page.getByRole('combobox', { name: 'Gateway' }).selectOption('');
    const hostsShown = async () => new Set(await rows.locator('.c-gateway').evaluateAll((els) => els.map((e) => e.getAttribute('title'))));
    for (const [i, id] of GATEWAYS.entries()) {
      await page.getByRole('combobox', { name: 'Host' }).selectOption(`host-${i + 1}`);
      await expect.poll(async () => [...(await hostsShown())], { timeout: 30_000 }).toEqual([`${id} on host-${i + 1}`]);
    }
    await page.getByRole('button', { name: 'Clear host filter' }).click();
    await expect.poll(async () => await page.getByRole('combobox', { name: 'Host' }).inputValue(), { timeout: 10_000 }).toBe('');
    // The page's API answers what the database holds: every edge-us call, and the facets name all three.
    const api = pageApi(page);
    expect(await api('history.count', { filter: { gateway: 'edge-us', event: 'tools/call' }, cap: 10_000 })).toEqual({ count: CALLS, capped: false });
    expect(await api('history.facets')).toMatchObject({ gateways: [...GATEWAYS].sort(), hosts: ['host-1', 'host-2', 'host-3'] });
    expect(await api('history.count', { filter: { host: 'host-2', event: 'tools/call' }, cap: 10_000 })).toEqual({ count: CALLS, capped: false });
  });

  it("lists each gateway's captured messages in the Messages screen, from the shared database", async () => {
    const api = pageApi(page);
    const rows = page.getByRole('table', { name: 'Messages' }).locator('.mrow[data-id]');
    for (const id of GATEWAYS) {
      await page.evaluate((g) => (location.hash = `#/messages/${g}`), id);
      await page.getByRole('heading', { name: 'Messages', level: 1 }).waitFor({ timeout: 30_000 });
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(0);
      // The store filters: the backend side only, then the client's tools/call requests.
      await page.getByRole('combobox', { name: 'Side' }).selectOption('backend');
      await expect
        .poll(async () => new Set(await rows.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.side))), { timeout: 30_000 })
        .toEqual(new Set(['backend']));
      await page.getByRole('button', { name: 'Clear side filter' }).click();
      const page1 = await api<{ items: { jsonrpcId?: number; executionId?: string }[]; nextCursor: string | null }>('messages.query', {
        filter: { gateway: id, side: 'client', direction: 'in', method: 'tools/call' },
        limit: 1000,
      });
      expect(page1.items.map((m) => m.jsonrpcId).sort((a, b) => a! - b!)).toEqual(Array.from({ length: CALLS }, (_, k) => k));
      expect(page1.items.every((m) => m.executionId !== undefined)).toBe(true);
    }
    // One message opens with its JSON, read from PostgreSQL.
    await rows.first().click();
    const json = page.getByRole('region', { name: 'Message detail' }).getByLabel('Message JSON', { exact: true });
    await json.filter({ hasText: '"jsonrpc": "2.0"' }).waitFor({ timeout: 15_000 });
    expect(await api<string[]>('messages.methods', { gateway: 'edge-ap' })).toContain('tools/call');
  });

  it('shows the shared history without its password in Settings, and tests a connection string there', async () => {
    await page.evaluate(() => (location.hash = '#/settings'));
    const data = page.getByRole('region', { name: 'Data' }).or(page.locator('section[aria-labelledby="storage"]'));
    await expect.poll(() => data.locator('dd.mono').nth(1).textContent(), { timeout: 20_000 }).toBe(withPassword(url).replace(SECRET, '***'));
    await data.getByLabel('Connection string').fill(withPassword(url));
    await data.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => data.getByRole('status').textContent(), { timeout: 20_000 }).toMatch(/^Connected: PostgreSQL \d+/);
    // Started with --db, which wins over Settings: the page says so and offers no switch.
    expect(await data.getByTestId('history-override').textContent()).toMatch(/named at start by --db, which wins over Settings/);
    expect(await data.getByRole('button', { name: 'Use this history' }).isDisabled()).toBe(true);
    await data.getByLabel('Connection string').fill(withPassword(url).replace('/team_history', '/no_such_db'));
    await data.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => data.getByRole('status').textContent(), { timeout: 20_000 }).toMatch(/database does not exist/);
    // Apart from the field the user typed it into, the page holds the password nowhere (answers, titles, facts).
    await data.getByLabel('Connection string').fill('');
    expect(await page.content()).not.toContain(SECRET);
    expect(web!.output()).not.toContain(SECRET);
  });
});
