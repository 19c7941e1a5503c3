// One fresh session per fixture: a real InterceptorHost per `server` name with the fixture's
// interceptors registered, a real InterceptorServerClient connected to each over an in-memory MCP
// transport pair, and a ChainRuntime merging them (A7) with the invoker-side `timeoutMs` overrides.
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { ChainRuntime } from '../chain/runtime';
import type { OverrideMap } from '../chain/types';
import { InterceptorServerClient } from '../client/client';
import { InterceptorHost } from '../host/host';
import { bindBehavior } from './behaviors';
import type { Fixture } from './fixture';

/** Server name for interceptors that do not say which server serves them. */
export const DEFAULT_SERVER = 'conformance';

export class ConformanceSession {
  private constructor(
    readonly hosts: Map<string, InterceptorHost>,
    readonly clients: InterceptorServerClient[],
    readonly runtime: ChainRuntime,
    private readonly end: AbortController,
  ) {}

  static async open(fixture: Fixture): Promise<ConformanceSession> {
    const end = new AbortController();
    const hosts = new Map<string, InterceptorHost>();
    const overrides: Record<string, { timeoutMs: number }> = {};
    for (const fi of fixture.interceptors) {
      const server = fi.server ?? DEFAULT_SERVER;
      let host = hosts.get(server);
      if (!host) {
        host = new InterceptorHost({ serverInfo: { name: server, version: '0.0.0' } });
        hosts.set(server, host);
      }
      host.register(bindBehavior(fi, { sessionSignal: end.signal }));
      if (fi.timeoutMs !== undefined) overrides[`${server}/${fi.name}`] = { timeoutMs: fi.timeoutMs };
    }
    if (hosts.size === 0) hosts.set(DEFAULT_SERVER, new InterceptorHost({ serverInfo: { name: DEFAULT_SERVER, version: '0.0.0' } }));
    const clients = [...hosts].map(
      ([name, host]) =>
        new InterceptorServerClient({
          name,
          autoReconnect: false,
          initializeTimeoutMs: 5_000,
          connection: {
            transport: 'custom',
            label: `in-memory host "${name}"`,
            connect: async () => {
              const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
              await host.createServer().connect(serverSide);
              return clientSide;
            },
          },
        }),
    );
    const session = new ConformanceSession(hosts, clients, new ChainRuntime(clients, { overrides: overrides as OverrideMap }), end);
    try {
      await Promise.all(clients.map((c) => c.connect()));
    } catch (err) {
      await session.close();
      throw err;
    }
    return session;
  }

  client(server: string): InterceptorServerClient | undefined {
    return this.clients.find((c) => c.name === server);
  }

  async close(): Promise<void> {
    this.end.abort();
    await Promise.all(this.clients.map((c) => c.close().catch(() => undefined)));
  }
}
