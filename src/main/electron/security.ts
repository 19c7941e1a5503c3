// Window and session hardening of the desktop shell: navigation pinned to our page, no new windows, no
// webviews, no permissions, and the renderer's CSP sent as a response header.
import { shell, type BrowserWindow, type Session } from 'electron';
import { contentSecurityPolicy } from '../../shared/security/csp';
import { isOwnPageUrl, opensInSystemBrowser } from './trust';
export { isOwnPageUrl, isTrustedFrame, trustedPrefix } from './trust';

export function hardenWindow(win: BrowserWindow, prefix: string): void {
  const contents = win.webContents;
  // Exact page, not a prefix: `…/index.html.evil.html` or another local file is refused.
  contents.on('will-navigate', (event, url) => {
    if (!isOwnPageUrl(url, prefix)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    // Links to documentation and OAuth authorization pages (the Playground client) open in the user's
    // browser; nothing opens inside the app.
    // electronegativity-justified OPEN_EXTERNAL_JS_CHECK: only https: URLs, and http: on this machine, reach
    // openExternal (no file:, smb:, custom schemes that could start programs; see opensInSystemBrowser), and
    // only from our own page, whose links are ours.
    if (opensInSystemBrowser(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

/**
 * The CSP header of the desktop shell: <style> elements only with this run's nonce (CodeMirror gets it through
 * the preload bridge). In development the dev server injects its own <style> elements and needs its socket
 * (hot reload), so there styles fall back to 'unsafe-inline'.
 */
export function desktopCsp(styleNonce: string | undefined, devServerUrl = process.env.ELECTRON_RENDERER_URL): string {
  if (devServerUrl) return contentSecurityPolicy({ connect: [new URL(devServerUrl).origin.replace(/^http/, 'ws')] });
  return contentSecurityPolicy({ styleNonce });
}

export function hardenSession(session: Session, csp: string): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  // The policy as a response header on everything the session loads, replacing any the server sent. The
  // built index.html carries the same policy as a meta tag, for file:// loads where Chromium may not apply it.
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = Object.fromEntries(Object.entries(details.responseHeaders ?? {}).filter(([name]) => name.toLowerCase() !== 'content-security-policy'));
    // electronegativity-justified CSP_GLOBAL_CHECK: the tool reads only literal policies and cannot parse a
    // variable; this one comes from contentSecurityPolicy() (src/shared/security/csp.ts) and is evaluated in
    // its literal form in src/renderer/index.html.
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [csp] } });
  });
}
