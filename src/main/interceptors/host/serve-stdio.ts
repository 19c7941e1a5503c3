// Serves an InterceptorHost over stdio: stdout carries only JSON-RPC, logs belong on stderr.
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { InterceptorHost } from './host';

export interface StdioServing {
  /** Resolves when the peer closes stdin or `close()` is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveHostOverStdio(host: InterceptorHost, streams: { stdin?: Readable; stdout?: Writable } = {}): Promise<StdioServing> {
  const server = host.createServer();
  const transport = new StdioServerTransport(streams.stdin, streams.stdout);
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
