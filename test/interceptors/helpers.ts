// Test helpers: a host and an InterceptorServerClient joined by a real in-memory MCP transport pair.
import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { Server } from '@modelcontextprotocol/server';
import { InterceptorServerClient, type InterceptorServerClientOptions } from '../../src/main/interceptors/client';
import type { InterceptorHost } from '../../src/main/interceptors/host';

/** Every (re)connect builds a fresh Server for the host on a fresh linked pair. */
export function inMemoryClient(host: InterceptorHost | (() => Server), options: Partial<InterceptorServerClientOptions> = {}): InterceptorServerClient {
  return new InterceptorServerClient({
    name: 'mem',
    ...options,
    connection: {
      transport: 'custom',
      label: 'in-memory',
      connect: async () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        const server = typeof host === 'function' ? host() : host.createServer();
        await server.connect(serverSide);
        return clientSide;
      },
    },
  });
}
