// What every screenshot script starts from: web mode on a fresh data folder (with its demo gateway),
// Chromium, and one page on the console with the app API callable from it; then the shots themselves,
// written to docs/screenshots with nothing hovered.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, root, startWebMode, type WebModeRun } from '../test/e2e/harness';
import { pageApi, type PageApi } from '../test/e2e/support/page-api';
import { connectHttpClient, firstToken } from '../test/app/mcp-client';

export interface ConsoleSession {
  web: WebModeRun;
  browser: Browser;
  page: Page;
  api: PageApi;
  /** Closes the browser and stops web mode (removing its data folder). */
  close(): Promise<void>;
}

/** Opens the console at `hash` (e.g. '#/chain/demo') in a page of the given size. */
export async function openConsole(viewport: { width: number; height: number }, hash = ''): Promise<ConsoleSession> {
  const web = await startWebMode();
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (err) {
    await web.stop();
    throw err;
  }
  const close = async () => {
    await browser.close();
    await web.stop();
  };
  try {
    const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
    await page.goto(`${web.openUrl}${hash}`);
    return { web, browser, page, api: pageApi(page), close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** An MCP client on the demo gateway's HTTP listener, with its bearer token (real traffic to picture). */
export async function connectDemoClient(web: WebModeRun) {
  const config = JSON.parse(readFileSync(join(web.dataDir, 'gateways', 'demo.json'), 'utf8')) as Record<string, unknown>;
  return connectHttpClient(`http://127.0.0.1:${(config.listen as { port: number }).port}/mcp`, firstToken(config));
}

export const screenshotPath = (name: string) => join(root, 'docs', 'screenshots', `${name}.png`);

// `--only a,b-dark` retakes just those images: every step still runs (a shot needs the state the steps
// before it make), but only the named files are written, so one changed screen does not churn the rest.
const only = parseArgs({ options: { only: { type: 'string' } }, strict: false, allowPositionals: true }).values.only;
const wanted = typeof only === 'string' ? new Set(only.split(',').map((n) => n.trim())) : undefined;

/**
 * Shoots the page as a person sees it on arrival: the mouse parked in the bottom-left corner (nothing
 * hovered), optionally the main area scrolled to its top, and `settleMs` for transitions to finish.
 */
export async function shoot(page: Page, name: string, options: { settleMs: number; scrollToTop?: boolean }): Promise<void> {
  if (wanted && !wanted.has(name)) return;
  await page.mouse.move(2, page.viewportSize()!.height - 10);
  if (options.scrollToTop) await page.evaluate(() => document.querySelector('.main')?.scrollTo(0, 0));
  await page.waitForTimeout(options.settleMs);
  const path = screenshotPath(name);
  await page.screenshot({ path });
  console.log(`wrote ${path}`);
}

type Theme = 'light' | 'dark' | 'system';

/** Sets the theme as Settings does (the setting is pushed to the page, which applies it) and waits for it. */
export async function setTheme(page: Page, api: PageApi, theme: Theme): Promise<void> {
  await api('settings.update', { theme });
  await page.waitForFunction(
    (t) => document.documentElement.dataset.theme === (t === 'system' ? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light') : t),
    theme,
    { timeout: 10_000 },
  );
}

/**
 * Shoots the page as it is in the light theme (`name`) and in the dark one (`name-dark`), then sets the
 * theme back to what it was. Switching the theme keeps the page's state (an open dialog, a typed filter),
 * so both images show the same moment.
 */
export async function shootBothThemes(page: Page, api: PageApi, name: string, options: { settleMs: number; scrollToTop?: boolean }): Promise<void> {
  const before = (await api<{ theme: Theme }>('settings.get')).theme;
  await setTheme(page, api, 'light');
  await shoot(page, name, options);
  await setTheme(page, api, 'dark');
  await shoot(page, `${name}-dark`, options);
  await setTheme(page, api, before);
}
