// Serves an InterceptorHost over stdio: stdout carries only JSON-RPC, logs belong on stderr. The SDK's
// Server answers everything but the invokes themselves, which HostStdioTransport answers from the line.
import type { Readable, Writable } from 'node:stream';
import type { InterceptorHost } from './host';
import { HostStdioTransport } from './stdio-transport';

export interface StdioServing {
  /** Resolves when the peer closes stdin or `close()` is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveHostOverStdio(host: InterceptorHost, streams: { stdin?: Readable; stdout?: Writable } = {}): Promise<StdioServing> {
  const server = host.createServer();
  const transport = new HostStdioTransport((params, lineBytes, signal) => host.invokeFromWire(params, lineBytes, signal), streams.stdin, streams.stdout);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const previous = server.onclose;
  server.onclose = () => {
    previous?.();
    resolveClosed();
  };
  // The transport closes itself (and so the server) when stdin ends or closes.
  await server.connect(transport);
  return {
    closed,
    async close() {
      await server.close();
      resolveClosed();
    },
  };
}
