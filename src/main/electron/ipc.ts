// The Electron adapter of the app API: one invoke channel into the shared dispatcher, one event
// channel out. Both check that the other end is our own page's top frame.
import { ipcMain, type BrowserWindow } from 'electron';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../shared/api/bridge';
import type { AppCore } from '../services/app-core';
import { isTrustedFrame } from './security';

export function registerIpc(core: AppCore, windows: () => BrowserWindow[], prefix: string): () => void {
  ipcMain.handle(IPC_INVOKE_CHANNEL, async (event, procedure: unknown, input: unknown) => {
    if (!isTrustedFrame(event.senderFrame, prefix)) {
      return { ok: false, error: { code: 'unavailable', message: 'Refused: the caller is not the console window.' } };
    }
    return core.dispatcher.dispatch(procedure, input);
  });
  const unsubscribe = core.onEvent((event) => {
    for (const win of windows()) {
      if (win.isDestroyed()) continue;
      const frame = win.webContents.mainFrame;
      if (isTrustedFrame(frame, prefix)) frame.send(IPC_EVENT_CHANNEL, event);
    }
  });
  return () => {
    ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
    unsubscribe();
  };
}
