// The narrow bridge the Electron preload exposes on `window.interceptorConsole`.
// Two named functions: nothing of Node or ipcRenderer crosses into the page.
import type { ApiResult } from './envelope';

export const IPC_INVOKE_CHANNEL = 'ic:invoke';
export const IPC_EVENT_CHANNEL = 'ic:event';
export const BRIDGE_GLOBAL = 'interceptorConsole';

export interface ConsoleBridge {
  invoke(procedure: string, input: unknown): Promise<ApiResult<unknown>>;
  onEvent(listener: (event: unknown) => void): () => void;
}

declare global {
  interface Window {
    interceptorConsole?: ConsoleBridge;
  }
}
