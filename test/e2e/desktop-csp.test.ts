// The JSON editors (CodeMirror) under the desktop shell's CSP while they are edited: editor-csp.test.ts does
// this in web mode; here the same built renderer runs as the Electron shell serves it, in a real Chromium (the
// Electron runtime cannot be installed where the tests run).
//
// The shell is the real code on the `electron` stand-in (test/electron/electron-stand-in.ts): main.ts starts
// as in the app (a real core with the demo gateway on a fresh data folder, this run's style nonce passed to the
// preload in additionalArguments, hardenSession with desktopCsp, registerIpc, the window loading
// out/renderer/index.html), and the real preload builds the bridge on the stand-in's contextBridge. The stand-in
// ipcRenderer is connected to that window: the bridge's invoke reaches registerIpc's handler as a call from the
// window's top frame (so its sender check, isAppTopFrame, passes as in the app; the frame it checks is the
// stand-in's, whose URL is the file:// one loadFile gave it, not the Chromium page's), and what the main process
// sends to that frame reaches the bridge's event listeners.
//
// The page: Electron loads the file with loadFile, but Chromium applies no response headers to file:// loads, so
// out/renderer/ is served here under a made-up origin with Playwright's page.route, each response carrying the
// headers the stand-in session's onHeadersReceived hook returns when called as Chromium would call it. Both
// policies apply, as in Electron: the built page's meta CSP ('unsafe-inline' styles) and the shell's header
// (styles only with this run's nonce). Before the app's first script, window.interceptorConsole is a proxy of
// the real bridge: invoke goes through an exposed function to the bridge on the Node side, styleNonce is the
// bridge's, events are pushed in as the bridge's listener gets them. No web-mode token, meta nonce or API.
// Then, as in editor-csp: violations and console CSP errors recorded from the first script, nothing refused at
// start, a probe <style> without the nonce refused (which also shows the header applies: the meta tag alone
// would admit it), the Chain screen's JSON tab and the Playground's payload edited, and nothing refused.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page, Request } from 'playwright-core';
import { BRIDGE_GLOBAL, STYLE_NONCE_ARG, type ConsoleBridge } from '../../src/shared/api/bridge';
import { contentSecurityPolicy } from '../../src/shared/security/csp';
import { tempDir } from '../app/helpers';
import { app, contextBridge, ipcRenderer, session } from '../electron/electron-stand-in';
import { quitMainProcess, startMainProcess } from '../electron/start-main';
import { waitFor } from '../support/wait-for';
import { chromiumAvailable, ensureRendererBuilt, launchChromium, root } from './harness';
import { editChainJson, editPlaygroundPayload, recordCsp, type CspRecording } from './support/csp-recording';
import { waitForDemoGateway, type PageApi } from './support/page-api';

vi.mock('electron', async () => await import('../electron/electron-stand-in'));

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED desktop CSP browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

const ORIGIN = 'http://desktop.invalid';
const rendererDir = join(root, 'out', 'renderer');
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** What the page sees of its bridge proxy: the exposed invoke, and where the Node side pushes events. */
type PageSide = { __icInvoke(procedure: string, input: unknown): Promise<unknown>; __icEvent?: (event: unknown) => void; __icDelivered: number };

describe.skipIf(!haveChromium)("JSON editors under the desktop shell's CSP while edited (Chromium, stand-in Electron)", { timeout: 120_000 }, () => {
  let data: ReturnType<typeof tempDir> | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let csp: CspRecording;
  let bridge: ConsoleBridge;
  /** The API through the real bridge, from the Node side (as the preload calls it). */
  const api: PageApi = async <T>(procedure: string, input: unknown = {}) => {
    const r = await bridge.invoke(procedure, input);
    if (!r.ok) throw new Error(`${procedure}: ${r.error.message}`);
    return r.value as T;
  };
  let nonce: string;
  let documentCsp: string | undefined;
  let stopEvents: (() => void) | undefined;
  let started = false;
  /** Procedures the page invoked through its bridge, and every URL it requested. */
  const invokedByPage: string[] = [];
  const requested: string[] = [];

  /** The headers the shell's session gives a response: its onHeadersReceived hook, called as Chromium calls it. */
  function shellHeaders(url: string, responseHeaders: Record<string, string[]>): Record<string, string> {
    let response: { responseHeaders?: Record<string, string[]> } | undefined;
    session.defaultSession.headersListener!({ url, responseHeaders }, (r) => (response = r));
    if (!response?.responseHeaders) throw new Error(`the session's hook answered nothing for ${url}`);
    return Object.fromEntries(Object.entries(response.responseHeaders).map(([name, values]) => [name, values.join(', ')]));
  }

  /** out/renderer/ under ORIGIN, each response with the shell's headers; any other origin is refused. */
  async function serveRenderer(request: Request): Promise<{ status: number; headers: Record<string, string>; body: Buffer | string }> {
    const url = new URL(request.url());
    const file = resolve(rendererDir, `.${decodeURIComponent(url.pathname)}`);
    const found = url.origin === ORIGIN && file.startsWith(rendererDir + sep) && existsSync(file) && statSync(file).isFile();
    if (!found) return { status: 404, headers: shellHeaders(url.href, { 'Content-Type': ['text/plain'] }), body: 'not found' };
    const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
    return { status: 200, headers: shellHeaders(url.href, { 'Content-Type': [type] }), body: readFileSync(file) };
  }

  beforeAll(async () => {
    ensureRendererBuilt();
    data = tempDir('ic-desktop-csp-');
    // main.ts as the app runs it: its data folder from the environment, no dev server, the history in that folder.
    vi.stubEnv('INTERCEPTOR_CONSOLE_DATA', data.dir);
    vi.stubEnv('INTERCEPTOR_CONSOLE_DB', '');
    app.appPath = root;
    started = true;
    const win = await startMainProcess();
    const args = (win.options.webPreferences as { additionalArguments: string[] }).additionalArguments;
    nonce = args.find((a) => a.startsWith(STYLE_NONCE_ARG))!.slice(STYLE_NONCE_ARG.length);

    // The preload, with the arguments this window's renderer gets, calling from the window's top frame.
    process.argv.push(...args);
    try {
      await import('../../src/preload/index');
    } finally {
      process.argv.splice(process.argv.length - args.length, args.length);
    }
    bridge = contextBridge.exposed.get(BRIDGE_GLOBAL) as ConsoleBridge;
    ipcRenderer.connectTo(win);

    // The demo gateway (created by main.ts's core.start) running with its interceptor servers, seen through the bridge.
    await waitFor(async () => (await bridge.invoke('gateways.get', { id: 'demo' })).ok, 60_000, 'the demo gateway to be created');
    await waitForDemoGateway(api, 90_000);

    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('request', (r) => requested.push(r.url()));
    await page.route('**/*', async (route) => route.fulfill(await serveRenderer(route.request())));
    csp = await recordCsp(page);
    await page.exposeFunction('__icInvoke', (procedure: string, input: unknown) => {
      invokedByPage.push(procedure);
      return bridge.invoke(procedure, input);
    });
    await page.addInitScript(
      ({ name, styleNonce }) => {
        const side = window as unknown as PageSide;
        const listeners = new Set<(event: unknown) => void>();
        side.__icDelivered = 0;
        side.__icEvent = (event) => {
          for (const listener of listeners) {
            side.__icDelivered++;
            listener(event);
          }
        };
        const proxy: ConsoleBridge = {
          invoke: (procedure, input) => side.__icInvoke(procedure, input) as ReturnType<ConsoleBridge['invoke']>,
          onEvent(listener) {
            listeners.add(listener);
            return () => void listeners.delete(listener);
          },
          styleNonce,
        };
        // As contextBridge exposes it: a frozen object the page cannot change.
        Object.defineProperty(window, name, { value: Object.freeze(proxy), enumerable: true });
      },
      { name: BRIDGE_GLOBAL, styleNonce: bridge.styleNonce },
    );
    stopEvents = bridge.onEvent((event) => {
      void page.evaluate((e) => (window as unknown as PageSide).__icEvent?.(e), event).catch(() => undefined);
    });

    const response = await page.goto(`${ORIGIN}/index.html#/chain/demo`);
    documentCsp = response?.headers()['content-security-policy'];
    await page.locator('html[data-app-state="ready"]').waitFor({ state: 'attached', timeout: 30_000 });

    // Nothing refused while the app started; then the recording is shown to work (and the header to apply: the
    // meta tag alone admits any <style>): a <style> without the nonce is refused, and both records say so.
    await csp.expectNothingRefused();
    await csp.expectProbeStyleRefused();
  }, 240_000);

  afterAll(async () => {
    stopEvents?.();
    await browser?.close();
    if (started) {
      // Quitting stops the core (the demo gateway and its servers), then exits.
      await quitMainProcess();
    }
    vi.unstubAllEnvs();
    data?.cleanup();
  }, 60_000);

  it("runs on the bridge, under the shell's CSP header with the nonce it passed to the preload", async () => {
    // The nonce the shell made is the bridge's, and the header the page got admits styles by it alone.
    expect(nonce).toMatch(/^[\w+/]{20,}={0,2}$/);
    expect(bridge.styleNonce).toBe(nonce);
    expect(documentCsp).toBe(contentSecurityPolicy({ styleNonce: nonce }));
    expect(documentCsp).toContain(`style-src 'self' 'nonce-${nonce}';`);
    expect(documentCsp).not.toContain('unsafe-inline');
    // The built page's own policy applies too (as in Electron); it is the one that would admit inline styles.
    expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toContain("style-src 'self' 'unsafe-inline'");

    // Nothing of web mode: no meta nonce, no token, no request but the renderer's files.
    expect(await page.locator('meta[name="csp-nonce"]').count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.getItem('ic-token'))).toBeNull();
    expect(requested.filter((u) => !u.startsWith(`${ORIGIN}/`) || u.startsWith(`${ORIGIN}/api/`))).toEqual([]);

    // The app's calls went through the bridge into the shell's IPC handler and the core behind it.
    expect(invokedByPage.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => window.interceptorConsole!.invoke('app.info', {}))).toMatchObject({ ok: true, value: { mode: 'electron' } });
    // And the core's events reach the app's listeners: a settings change (to the theme it has) makes it fetch them again.
    const delivered = () => page.evaluate(() => (window as unknown as PageSide).__icDelivered);
    const [deliveredBefore, invokedBefore] = [await delivered(), invokedByPage.length];
    await api('settings.update', { theme: 'system' });
    await waitFor(async () => (await delivered()) > deliveredBefore, 10_000, "the settings event to reach the app's listeners");
    await waitFor(() => invokedByPage.slice(invokedBefore).includes('settings.get'), 10_000, 'the app to fetch the settings again');
  });

  it("edits the Chain screen's JSON: invalid and valid text, the lint tooltip, search", async () => {
    // The Chain screen shows the demo gateway's chain: data that reached the page only through the bridge.
    await editChainJson(page, csp);
  });

  it("edits the Playground's payload: valid, then invalid and valid again", async () => {
    await editPlaygroundPayload(page, csp);
  });
});
