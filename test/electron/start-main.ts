// The real main.ts started on the `electron` stand-in as the app starts it, and quit as the app quits (its
// before-quit stops the core, then exits). The calling test file mocks 'electron' with electron-stand-in.ts
// and sets the environment main.ts reads (INTERCEPTOR_CONSOLE_DATA, XDG_DATA_HOME) first.
import { expect, vi } from 'vitest';
import { app, BrowserWindow, FakeSession, ipcMain, session } from './electron-stand-in';

/** Imports main.ts (without a dev server) and returns the window it opens. */
export async function startMainProcess(): Promise<BrowserWindow> {
  vi.stubEnv('ELECTRON_RENDERER_URL', '');
  ipcMain.handlers.clear();
  session.defaultSession = new FakeSession();
  const before = BrowserWindow.all.length;
  await import('../../src/main/electron/main');
  await vi.waitFor(() => expect(BrowserWindow.all.length).toBe(before + 1), { timeout: 30_000 });
  return BrowserWindow.all.at(-1)!;
}

/** Quits as the app does; true when main.ts held the quit back to stop its core first. Then exit code 0. */
export async function quitMainProcess(): Promise<boolean> {
  let prevented = false;
  app.emit('before-quit', { preventDefault: () => (prevented = true) });
  expect(await app.exited).toBe(0);
  return prevented;
}
