// The setup most browser tests share: the built renderer, web mode on a fresh data folder (with or without
// the demo gateway), Chromium with one page on the console, the page's API caller, and, when asked, a real
// MCP client connected to the demo gateway. close() stops them all; a setup that fails half-way stops
// what it had started before it throws.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/client';
import { ensureRendererBuilt, launchChromium, startWebMode, type WebModeRun } from '../harness';
import { pageApi, waitForDemoGateway, type PageApi } from './page-api';
import { connectHttpClient, firstToken } from '../../app/mcp-client';

export interface ConsoleSession {
  web: WebModeRun;
  browser: Browser;
  page: Page;
  api: PageApi;
  /** Connected to the demo gateway when `demoClient` was asked for. */
  client: Client | undefined;
  close(): Promise<void>;
}

export interface ConsoleOptions {
  /** Start the demo gateway (default) and wait until it and its interceptor servers are up. */
  demo?: boolean;
  /** How long the demo gateway may take to come up (a first connect can miss its deadline on a loaded machine). */
  demoTimeoutMs?: number;
  /** Also connect an MCP client to the demo gateway. */
  demoClient?: boolean;
  viewport?: { width: number; height: number };
}

/** An MCP client on the demo gateway's HTTP listener, with the bearer token from its config file. */
export async function connectDemoClient(web: WebModeRun): Promise<Client> {
  const config = JSON.parse(readFileSync(join(web.dataDir, 'gateways', 'demo.json'), 'utf8')) as Record<string, unknown>;
  return connectHttpClient(`http://127.0.0.1:${(config.listen as { port: number }).port}/mcp`, firstToken(config));
}

async function closeParts(s: Partial<ConsoleSession>): Promise<void> {
  await s.client?.close();
  await s.browser?.close();
  await s.web?.stop();
}

export async function openConsole(options: ConsoleOptions = {}): Promise<ConsoleSession> {
  const demo = options.demo !== false;
  const s: Partial<ConsoleSession> = {};
  try {
    ensureRendererBuilt();
    s.web = await startWebMode({ demo });
    s.browser = await launchChromium();
    s.page = await s.browser.newPage({ viewport: options.viewport ?? { width: 1440, height: 900 } });
    await s.page.goto(s.web.openUrl);
    // The app says when it has answered its first calls (src/renderer/src/app/app-state-signal.ts).
    await s.page.locator('html[data-app-state="ready"]').waitFor({ state: 'attached', timeout: 30_000 });
    s.api = pageApi(s.page);
    if (demo) await waitForDemoGateway(s.api, options.demoTimeoutMs);
    s.client = options.demoClient ? await connectDemoClient(s.web) : undefined;
  } catch (err) {
    // A setup that failed half-way leaves no process behind: afterAll never sees these parts.
    await closeParts(s).catch(() => undefined);
    throw err;
  }
  s.close = () => closeParts(s);
  return s as ConsoleSession;
}
