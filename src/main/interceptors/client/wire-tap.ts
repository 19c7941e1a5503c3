// Watching one interceptor-server connection's JSON-RPC messages (the gateway's message capture): the
// transport's send and onmessage are wrapped before the SDK client connects it, so the initialize
// handshake, interceptors/list, every interceptor/invoke and its answer, pings and notifications pass.
import type { Transport } from '@modelcontextprotocol/client';

export interface WireTap {
  /** `text`: the message's JSON text as read or written, when the transport has it (the recorder keeps it as it is). */
  message(direction: 'in' | 'out', message: unknown, text?: string): void;
  /** A connect (spawn, initialize, capability check) failed with this error. */
  connectFailed(error: string): void;
  /** A new connection starts: requests of the old one will never be answered. */
  reset?(): void;
}

export function tapTransport(transport: Transport, tap: WireTap): Transport {
  tap.reset?.();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    tap.message('out', message);
    return send(message, options);
  };
  let handler: Transport['onmessage'];
  const wrapped: NonNullable<Transport['onmessage']> = (message, extra) => {
    tap.message('in', message);
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
