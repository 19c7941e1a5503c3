// Watches the JSON-RPC messages of one interceptor-server connection so the Playground can show the
// raw `interceptor/invoke` request and response exactly as they crossed the wire (ids included).
// The tap sits on a real transport; it copies nothing on the hot path beyond a reference per message.
import type { Transport } from '@modelcontextprotocol/client';

type Message = Record<string, unknown>;

export interface RawExchange {
  request?: Message;
  response?: Message;
}

/** Records outgoing `interceptor/invoke` requests and matches each response by its id. */
export class RpcTap {
  private readonly pending = new Map<string, RawExchange>();
  private captures: ((ex: RawExchange) => void)[] = [];

  /** Wraps `send` and `onmessage` of a freshly built transport (before the client connects it). */
  attach(transport: Transport): Transport {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      this.onOutgoing(message as unknown as Message);
      return send(message, options);
    };
    let handler: Transport['onmessage'];
    const wrapped: NonNullable<Transport['onmessage']> = (message, extra) => {
      this.onIncoming(message as unknown as Message);
      handler?.(message, extra);
    };
    Object.defineProperty(transport, 'onmessage', {
      configurable: true,
      enumerable: true,
      get: () => (handler ? wrapped : undefined),
      set: (h: Transport['onmessage']) => {
        handler = h;
      },
    });
    return transport;
  }

  /**
   * Runs `op` and returns the raw exchange of the first `interceptor/invoke` it sent. Callers run
   * one invoke at a time per server (the pool serialises them), so the attribution is exact.
   */
  async capture<T>(op: () => Promise<T>): Promise<{ value?: T; error?: unknown; raw: RawExchange }> {
    let seen: RawExchange | undefined;
    const take = (ex: RawExchange) => {
      seen = ex;
    };
    this.captures.push(take);
    try {
      const value = await op();
      return { value, raw: { ...seen } };
    } catch (error) {
      return { error, raw: { ...seen } };
    } finally {
      this.captures = this.captures.filter((c) => c !== take);
    }
  }

  private onOutgoing(message: Message): void {
    if (message.method !== 'interceptor/invoke' || message.id === undefined) return;
    const ex: RawExchange = { request: message };
    this.pending.set(String(message.id), ex);
    // A bounded map: a response that never comes (timeout, closed connection) must not leak.
    if (this.pending.size > 64) this.pending.delete(this.pending.keys().next().value!);
    // The capture holds the same object, so the response lands where it reads it.
    this.captures.shift()?.(ex);
  }

  private onIncoming(message: Message): void {
    if (message.id === undefined || message.method !== undefined) return;
    const ex = this.pending.get(String(message.id));
    if (!ex) return;
    ex.response = message;
    this.pending.delete(String(message.id));
  }
}
