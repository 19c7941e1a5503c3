// Serves an InterceptorHost over stdio: stdout carries only JSON-RPC, logs belong on stderr.
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { InterceptorHost } from './host';
import { coalesceWrites } from '../coalesce-writes';

export interface StdioServing {
  /** Resolves when the peer closes stdin or `close()` is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveHostOverStdio(host: InterceptorHost, streams: { stdin?: Readable; stdout?: Writable } = {}): Promise<StdioServing> {
  const server = host.createServer();
  // Answers finished in one turn (a phase's validators arrive together) leave in one write.
  const transport = coalesceWrites(new StdioServerTransport(streams.stdin, streams.stdout), () => streams.stdout ?? process.stdout);
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
