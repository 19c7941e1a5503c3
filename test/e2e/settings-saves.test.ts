// Settings saves say what they saved, in a real Chromium against web mode: the theme, the redaction paths
// and the demo-gateway switch each confirm in their own section, saying the value now stored (checked
// against settings.get); a redaction path the store cannot parse is refused in the redaction form itself,
// with the store's reason, and nothing is saved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, ensureRendererBuilt, launchChromium, startWebMode, type WebModeRun } from './harness';
import { pageApi, type PageApi } from './support/page-api';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED settings browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

type Settings = { theme: string; redactPaths: string[]; demoGateway: boolean };

describe.skipIf(!haveChromium)('Settings saves confirm what they saved (web mode, Chromium)', () => {
  let web: WebModeRun;
  let browser: Browser;
  let page: Page;
  let api: PageApi;
  let holdSettingsUpdates = false;

  beforeAll(async () => {
    ensureRendererBuilt();
    web = await startWebMode({ demo: false });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // The console's calls travel over one WebSocket: pass it through, holding settings.update calls while
    // a test asks for a slow save.
    await page.routeWebSocket(/\/api\/ws$/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        if (holdSettingsUpdates && String(message).includes('"settings.update"')) setTimeout(() => server.send(message), 1500);
        else server.send(message);
      });
      server.onMessage((message) => ws.send(message));
    });
    // While a test sets window.__slowTimers, short timers wait 400 ms: react-query flushes a mutation's state
    // to the component on such a timer, so a control that waits for it visibly lags the click.
    await page.addInitScript(() => {
      const w = window as unknown as { __slowTimers?: boolean; setTimeout: typeof setTimeout };
      const original = w.setTimeout.bind(window);
      w.setTimeout = ((fn: () => void, ms?: number, ...rest: unknown[]) =>
        original(fn, w.__slowTimers && (ms ?? 0) < 50 ? 400 : ms, ...rest)) as typeof setTimeout;
    });
    await page.goto(`${web.openUrl}#/settings`);
    api = pageApi(page);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor({ timeout: 30_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
  });

  it('confirms a theme change in the Appearance section', async () => {
    await page.getByRole('radiogroup', { name: 'Theme' }).getByLabel('Dark').check();
    const saved = page.getByRole('status', { name: 'Theme saved' });
    // 24-hour, like every time in the console (time-format.ts); it said "2:03:04 PM" while Traffic said "14:03:04.120".
    await expect.poll(() => saved.textContent(), { timeout: 15_000 }).toMatch(/^✓ Saved \d{2}:\d{2}:\d{2}: theme Dark\.$/);
    expect((await api<Settings>('settings.get')).theme).toBe('dark');
    // Inside its own section, next to the control.
    expect(await page.getByRole('region', { name: 'Appearance' }).getByRole('status', { name: 'Theme saved' }).count()).toBe(1);
  });

  it('refuses a redaction path the store cannot parse in the form, then confirms valid ones with the paths saved', async () => {
    const section = page.getByRole('region', { name: 'Redaction at rest' });
    const paths = section.getByLabel(/JSON paths to redact/);
    await paths.fill('arguments.password\nitems[');
    await section.getByRole('button', { name: 'Save redaction' }).click();
    const refused = section.getByRole('alert', { name: 'Redaction not saved' });
    await expect.poll(() => refused.textContent(), { timeout: 15_000 }).toContain('redaction path "items["');
    expect(await paths.getAttribute('aria-invalid')).toBe('true');
    expect(await section.getByRole('status', { name: 'Redaction saved' }).count()).toBe(0);
    expect((await api<Settings>('settings.get')).redactPaths).toEqual([]);
    // No banner at the top of the page: the error is where it was made.
    expect(await page.locator('.page > .banner.error').count()).toBe(0);

    await paths.fill('arguments.password\n**.apiKey');
    expect(await refused.count()).toBe(0); // editing clears it
    await section.getByRole('button', { name: 'Save redaction' }).click();
    const saved = section.getByRole('status', { name: 'Redaction saved' });
    await expect.poll(() => saved.textContent(), { timeout: 15_000 }).toContain('2 redaction paths (arguments.password, **.apiKey)');
    expect((await api<Settings>('settings.get')).redactPaths).toEqual(['arguments.password', '**.apiKey']);
  });

  it('confirms the demo-gateway switch, saying what happens on first start', async () => {
    const section = page.getByRole('region', { name: 'Demo gateway' });
    // A save that takes a while (a loaded machine; here held 1.5 s by the socket route set up in beforeAll):
    // the box must show the new value at once, not snap back until the save answers (seen in CI: "Clicking
    // the checkbox did not change its state").
    // And a busy renderer, whose timers run late (slowed here on purpose): the box changes with the click.
    holdSettingsUpdates = true;
    await page.evaluate(() => ((window as unknown as { __slowTimers: boolean }).__slowTimers = true));
    await section.getByRole('checkbox').uncheck();
    await page.evaluate(() => ((window as unknown as { __slowTimers: boolean }).__slowTimers = false));
    holdSettingsUpdates = false;
    const saved = section.getByRole('status', { name: 'Demo gateway saved' });
    await expect.poll(() => saved.textContent(), { timeout: 15_000 }).toContain('no demo gateway is created on first start.');
    expect((await api<Settings>('settings.get')).demoGateway).toBe(false);
  });

  it('says what a retention save keeps, beside what it deleted', async () => {
    await page.getByLabel('Keep for (days)').fill('30');
    await page.getByRole('button', { name: 'Save retention' }).click();
    const saved = page.getByRole('status', { name: 'Retention result' });
    await expect
      .poll(() => saved.textContent(), { timeout: 15_000 })
      .toBe('Retention saved; nothing was deleted. Now keeping any number of executions, for 30 days.');
  });
});
