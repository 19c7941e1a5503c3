// Preload: the narrow typed bridge. Two named functions on window.interceptorConsole; the page never
// sees ipcRenderer, Node or Electron objects. Runs sandboxed, so it is bundled as CommonJS.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { BRIDGE_GLOBAL, IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, STYLE_NONCE_ARG, type ConsoleBridge } from '../shared/api/bridge';
import type { ApiResult } from '../shared/api/envelope';

const bridge: ConsoleBridge = {
  invoke(procedure: string, input: unknown): Promise<ApiResult<unknown>> {
    return ipcRenderer.invoke(IPC_INVOKE_CHANNEL, String(procedure), input) as Promise<ApiResult<unknown>>;
  },
  onEvent(listener: (event: unknown) => void): () => void {
    const handler = (_e: IpcRendererEvent, event: unknown) => listener(event);
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
    };
  },
  // From the main process through additionalArguments (process.argv is available to sandboxed preloads).
  styleNonce: process.argv.find((a) => a.startsWith(STYLE_NONCE_ARG))?.slice(STYLE_NONCE_ARG.length) ?? '',
};

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge);
