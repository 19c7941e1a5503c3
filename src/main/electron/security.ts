// Window hardening and the trust check for IPC: only our own page, in the top frame, may call the API.
import { shell, type BrowserWindow, type Session } from 'electron';
export { isTrustedFrame, trustedPrefix } from './trust';

export function hardenWindow(win: BrowserWindow, prefix: string): void {
  const contents = win.webContents;
  contents.on('will-navigate', (event, url) => {
    if (!url.startsWith(prefix)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    // Links to documentation open in the user's browser; nothing opens inside the app.
    if (/^https:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
