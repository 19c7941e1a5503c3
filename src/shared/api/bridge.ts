// The narrow bridge the Electron preload exposes on `window.interceptorConsole`.
// Two named functions and one string: nothing of Node or ipcRenderer crosses into the page.
import type { ApiResult } from './envelope';

export const IPC_INVOKE_CHANNEL = 'ic:invoke';
export const IPC_EVENT_CHANNEL = 'ic:event';
export const BRIDGE_GLOBAL = 'interceptorConsole';
/** The renderer argument (webPreferences.additionalArguments) that carries this run's CSP style nonce. */
export const STYLE_NONCE_ARG = '--ic-style-nonce=';

export interface ConsoleBridge {
  invoke(procedure: string, input: unknown): Promise<ApiResult<unknown>>;
  onEvent(listener: (event: unknown) => void): () => void;
  /** The CSP nonce for <style> elements the main process put in its Content-Security-Policy header. */
  styleNonce: string;
}

declare global {
  interface Window {
    interceptorConsole?: ConsoleBridge;
  }
}
