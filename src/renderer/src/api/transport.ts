// Picks how the page reaches the core: the Electron preload bridge when present, else the web-mode
// WebSocket (the token, taken from the URL fragment, offered as the `bearer.` subprotocol: a browser cannot
// set headers on a WebSocket). Both carry the same envelopes.
import type { ApiTransport } from '../../../shared/api/client';
import { forgetWebToken, webToken } from './web-token';
import { WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX } from '../../../shared/api/web-auth';

export function createTransport(): ApiTransport {
  const bridge = window.interceptorConsole;
  if (bridge) {
    return { invoke: (name, input) => bridge.invoke(name, input), subscribe: (listener) => bridge.onEvent(listener) };
  }
  return new WebSocketTransport();
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** One WebSocket, reconnected with backoff; calls made while it is down wait for it. */
class WebSocketTransport implements ApiTransport {
  private socket: WebSocket | undefined;
  private ready: Promise<WebSocket> | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(event: unknown) => void>();
  private retryMs = 250;

  constructor() {
    void this.connect();
  }

  async invoke(name: string, input: unknown): Promise<unknown> {
    const socket = await this.connect();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, procedure: name, input }));
    });
  }

  subscribe(listener: (event: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private connect(): Promise<WebSocket> {
    if (this.ready) return this.ready;
    const token = webToken() ?? '';
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`;
    this.ready = new Promise((resolve) => {
      const open = () => {
        const socket = new WebSocket(url, [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${token}`]);
        socket.onopen = () => {
          this.retryMs = 250;
          this.socket = socket;
          resolve(socket);
          // A reconnect may have missed events: tell listeners to refetch everything.
          this.emit({ type: 'tables.changed', tables: ['gateways', 'sessions', 'executions', 'steps', 'sink_events', 'replays', 'settings', 'pauses'] });
        };
        socket.onmessage = (msg) => this.onMessage(String(msg.data));
        socket.onclose = () => {
          const wasOpen = this.socket === socket;
          if (wasOpen) {
            this.socket = undefined;
            this.ready = undefined;
            for (const p of this.pending.values()) p.reject(new Error('connection to the console closed'));
            this.pending.clear();
            void this.connect();
          } else {
            void this.checkToken(token);
            setTimeout(open, this.retryMs);
            this.retryMs = Math.min(this.retryMs * 2, 5000);
          }
        };
      };
      open();
    });
    return this.ready;
  }

  /** A refused token (web mode restarted with a new one) would fail forever: start over, asking for the URL. */
  private async checkToken(token: string): Promise<void> {
    const res = await fetch('/api/call/app.info', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' }).catch(() => undefined);
    if (res?.status === 401) {
      forgetWebToken();
      location.reload();
    }
  }

  private onMessage(text: string): void {
    let msg: { id?: number; result?: unknown; event?: unknown };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return;
    }
    if (msg.event !== undefined) return this.emit(msg.event);
    if (typeof msg.id === 'number') {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      p?.resolve(msg.result);
    }
  }

  private emit(event: unknown): void {
    for (const l of this.listeners) l(event);
  }
}
