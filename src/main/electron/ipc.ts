// The Electron adapter of the app API: one invoke channel into the shared dispatcher, one event
// channel out. Both check that the other end is the top frame of one of our windows, showing our page.
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../shared/api/bridge';
import type { AppCore } from '../services/app-core';
import { isTrustedFrame } from './security';

export const REFUSED = { ok: false, error: { code: 'unavailable', message: 'Refused: the caller is not the console window.' } } as const;

/** The sender is one of our windows' web contents, the call comes from its top frame, and that shows our page. */
export function isAppTopFrame(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, windows: BrowserWindow[], prefix: string): boolean {
  const frame = event.senderFrame;
  const win = windows.find((w) => !w.isDestroyed() && w.webContents === event.sender);
  if (!win || !frame) return false;
  // That window's top frame (browser-global id), in its current document (frame token): not an iframe, not
  // another window's frame, not a document being swapped in or out.
  const top = win.webContents.mainFrame;
  return frame.frameTreeNodeId === top.frameTreeNodeId && frame.frameToken === top.frameToken && isTrustedFrame(frame, prefix);
}

export function registerIpc(core: AppCore, windows: () => BrowserWindow[], prefix: string): () => void {
  ipcMain.handle(IPC_INVOKE_CHANNEL, async (event, procedure: unknown, input: unknown) => {
    if (!isAppTopFrame(event, windows(), prefix)) return REFUSED;
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
