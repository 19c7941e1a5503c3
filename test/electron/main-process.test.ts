// The Electron main process's security wiring (src/main/electron/), run against a minimal stand-in for the
// `electron` module (test/electron/electron-stand-in.ts; the runtime cannot be installed here). The code under
// test is the real one: the navigation guard, the window-open handler, the session's permission handlers and
// CSP header, the IPC sender check with a real core behind it, and main.ts wiring them all together.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, STYLE_NONCE_ARG } from '../../src/shared/api/bridge';
import { contentSecurityPolicy } from '../../src/shared/security/csp';
import { tempDir, testCore } from '../app/helpers';
import { app, BrowserWindow, contextBridge, FakeFrame, FakeSession, FakeWebContents, ipcMain, ipcRenderer, session, shell } from './electron-stand-in';
import { quitMainProcess, startMainProcess } from './start-main';
import type { ConsoleBridge } from '../../src/shared/api/bridge';

vi.mock('electron', async () => await import('./electron-stand-in'));

const { desktopCsp, hardenSession, hardenWindow, trustedPrefix } = await import('../../src/main/electron/security');
const { registerIpc, REFUSED } = await import('../../src/main/electron/ipc');

const page = '/opt/Interceptor Console/resources/app.asar/out/renderer/index.html';
const prefix = trustedPrefix(page, '');

function windowShowing(url: string): BrowserWindow {
  const win = new BrowserWindow({});
  win.webContents.mainFrame.url = url;
  return win;
}

describe('navigation guard and window-open handler (hardenWindow)', () => {
  const win = windowShowing(prefix);
  hardenWindow(win as never, prefix);
  const contents = win.webContents;

  it('lets the page navigate to itself (a route, a query) and nowhere else', () => {
    expect(contents.navigate('will-navigate', prefix)).toBe(false);
    expect(contents.navigate('will-navigate', `${prefix}#/chain`)).toBe(false);
    expect(contents.navigate('will-navigate', `${prefix}?x=1`)).toBe(false);
    // A sibling whose name starts with ours (allowed while the guard compared a prefix), other files, the web.
    expect(contents.navigate('will-navigate', `${prefix}.evil.html`)).toBe(true);
    expect(contents.navigate('will-navigate', prefix.replace('index.html', 'index.html.evil'))).toBe(true);
    expect(contents.navigate('will-navigate', 'file:///tmp/evil.html')).toBe(true);
    expect(contents.navigate('will-navigate', 'https://example.com/')).toBe(true);
    expect(contents.navigate('will-navigate', 'javascript:alert(1)')).toBe(true);
  });

  it('refuses every redirect and webview', () => {
    expect(contents.navigate('will-redirect', prefix)).toBe(true);
    expect(contents.navigate('will-attach-webview', prefix)).toBe(true);
  });

  it('opens no window: https links (and http on this machine: a local OAuth authorization page) go to the browser, anything else nowhere', () => {
    shell.opened.length = 0;
    expect(contents.windowOpenHandler!({ url: 'https://github.com/modelcontextprotocol' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'http://127.0.0.1:4000/authorize?state=s' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'http://example.com/authorize' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'smb://host/share' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: prefix })).toEqual({ action: 'deny' });
    expect(shell.opened).toEqual(['https://github.com/modelcontextprotocol', 'http://127.0.0.1:4000/authorize?state=s']);
  });
});

describe('session hardening (hardenSession)', () => {
  const s = new FakeSession();
  const csp = desktopCsp('n0nce', '');
  hardenSession(s as never, csp);

  it('denies every permission request and check', () => {
    const answers: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal'])
      s.permissionRequestHandler!({}, permission, (granted) => answers.push(granted));
    expect(answers).toEqual([false, false, false, false]);
    expect(s.permissionCheckHandler!({}, 'media', prefix, {})).toBe(false);
  });

  it('sends the CSP as a response header, replacing one a server sent', () => {
    let response: { responseHeaders?: Record<string, string[]> } | undefined;
    s.headersListener!(
      { url: prefix, responseHeaders: { 'content-security-policy': ["default-src *; script-src * 'unsafe-eval'"], 'X-Other': ['kept'] } },
      (r) => (response = r),
    );
    expect(response!.responseHeaders).toEqual({ 'Content-Security-Policy': [csp], 'X-Other': ['kept'] });
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self' 'nonce-n0nce';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-eval|unsafe-inline/);
    // Development: the dev server's hot-reload socket is reachable and its injected styles allowed.
    expect(desktopCsp('n0nce', 'http://localhost:5173/')).toContain("connect-src 'self' ws://localhost:5173;");
  });

  it('index.html carries the same policy as its meta tag (for file:// loads)', () => {
    const html = readFileSync(join(import.meta.dirname, '../../src/renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1];
    // frame-ancestors is ignored in a meta tag, so the file leaves it out.
    expect(meta).toBe(contentSecurityPolicy().replace("; frame-ancestors 'none'", ''));
  });
});

describe('IPC sender check (registerIpc) with a real core', () => {
  const t = tempDir('ic-electron-ipc-');
  const core = testCore(t.dir);
  const ours = windowShowing(prefix);
  const foreignPage = windowShowing('https://example.com/');
  let unregister: () => void;
  const invoke = (event: { sender: unknown; senderFrame: unknown }) => ipcMain.handlers.get(IPC_INVOKE_CHANNEL)!(event, 'app.info', {});

  beforeAll(async () => {
    await core.start({ demo: false });
    unregister = registerIpc(core, () => [ours, foreignPage] as never, prefix);
  });
  afterAll(async () => {
    unregister?.();
    await core.shutdown();
    t.cleanup();
  });

  it("answers our window's top frame", async () => {
    expect(await invoke({ sender: ours.webContents, senderFrame: ours.webContents.mainFrame })).toMatchObject({ ok: true, value: { mode: 'test' } });
  });

  it('refuses a subframe, a frame of a window that is not ours, a foreign page and a vanished frame', async () => {
    const iframe = new FakeFrame(prefix, ours.webContents.mainFrame);
    expect(await invoke({ sender: ours.webContents, senderFrame: iframe })).toEqual(REFUSED);
    // Another web contents (not one of our windows) whose top frame shows our very file.
    const stranger = new FakeWebContents(prefix);
    expect(await invoke({ sender: stranger, senderFrame: stranger.mainFrame })).toEqual(REFUSED);
    // A top-level frame with our URL and no parent, claiming to come from our window, but not its main frame.
    expect(await invoke({ sender: ours.webContents, senderFrame: new FakeFrame(prefix) })).toEqual(REFUSED);
    expect(await invoke({ sender: foreignPage.webContents, senderFrame: foreignPage.webContents.mainFrame })).toEqual(REFUSED);
    expect(await invoke({ sender: ours.webContents, senderFrame: null })).toEqual(REFUSED);
  });

  it('pushes events to our top frame only', async () => {
    const before = ours.webContents.mainFrame.sent.length;
    await core.dispatcher.dispatch('settings.update', { theme: 'dark' });
    await vi.waitFor(() => expect(ours.webContents.mainFrame.sent.length).toBeGreaterThan(before));
    expect(ours.webContents.mainFrame.sent.at(-1)![0]).toBe(IPC_EVENT_CHANNEL);
    expect(foreignPage.webContents.mainFrame.sent).toEqual([]);
  });
});

describe('main.ts wires it all on start', () => {
  const t = tempDir('ic-electron-main-');

  beforeAll(async () => {
    // No demo gateway: nothing to spawn; the core is otherwise the real one (SQLite history in the folder).
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(join(t.dir, 'settings.json'), JSON.stringify({ demoGateway: false }));
    vi.stubEnv('INTERCEPTOR_CONSOLE_DATA', t.dir);
    await startMainProcess();
  }, 60_000);

  afterAll(async () => {
    // Quitting stops the core, then exits.
    expect(await quitMainProcess()).toBe(true);
    vi.unstubAllEnvs();
    t.cleanup();
  }, 30_000);

  const mainWindow = () => BrowserWindow.all.at(-1)!;

  it('creates the window isolated, sandboxed, without Node, webviews or auxclick, showing our page', () => {
    expect(app.getPath('userData')).toBe(t.dir);
    expect(mainWindow().options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
      disableBlinkFeatures: 'Auxclick',
    });
    expect(mainWindow().webContents.mainFrame.url).toMatch(/^file:\/\/\/.*\/renderer\/index\.html$/);
  });

  it('guards its navigation and hardens the default session', () => {
    const url = mainWindow().webContents.mainFrame.url;
    expect(mainWindow().webContents.navigate('will-navigate', `${url}#/traffic`)).toBe(false);
    expect(mainWindow().webContents.navigate('will-navigate', `${url}.evil.html`)).toBe(true);
    const s = session.defaultSession;
    expect(s.permissionRequestHandler).toBeTypeOf('function');
    let headers: Record<string, string[]> | undefined;
    s.headersListener!({ url }, (r) => (headers = r.responseHeaders));
    // The header's style nonce is the one the window's preload receives (and hands to CodeMirror).
    const args = (mainWindow().options.webPreferences as { additionalArguments: string[] }).additionalArguments;
    const nonce = args.find((a) => a.startsWith(STYLE_NONCE_ARG))!.slice(STYLE_NONCE_ARG.length);
    expect(nonce).toMatch(/^[\w+/]{20,}={0,2}$/);
    expect(headers!['Content-Security-Policy']).toEqual([desktopCsp(nonce, '')]);
    expect(headers!['Content-Security-Policy']![0]).not.toContain('unsafe-inline');
  });

  it('serves the API to its top frame and refuses a foreign frame', async () => {
    const handler = ipcMain.handlers.get(IPC_INVOKE_CHANNEL)!;
    const contents = mainWindow().webContents;
    expect(await handler({ sender: contents, senderFrame: contents.mainFrame }, 'app.info', {})).toMatchObject({ ok: true, value: { mode: 'electron' } });
    expect(await handler({ sender: contents, senderFrame: new FakeFrame(contents.mainFrame.url, contents.mainFrame) }, 'app.info', {})).toEqual(REFUSED);
    const stranger = new FakeWebContents(contents.mainFrame.url);
    expect(await handler({ sender: stranger, senderFrame: stranger.mainFrame }, 'app.info', {})).toEqual(REFUSED);
  });
});

describe('preload bridge', () => {
  it('exposes two functions and the style nonce the main process passed, nothing of ipcRenderer', async () => {
    process.argv.push(`${STYLE_NONCE_ARG}bm9uY2U=`);
    try {
      await import('../../src/preload/index');
    } finally {
      process.argv.pop();
    }
    const bridge = contextBridge.exposed.get('interceptorConsole') as ConsoleBridge;
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'onEvent', 'styleNonce']);
    expect(bridge.styleNonce).toBe('bm9uY2U=');
    await bridge.invoke('app.info', {});
    expect(ipcRenderer.invoked.at(-1)).toEqual([IPC_INVOKE_CHANNEL, 'app.info', {}]);
  });
});
