// Serves an InterceptorHost over Streamable HTTP on one path (default `/mcp`), one MCP session per
// client. Security defaults (product §4): bound to 127.0.0.1; Host, Origin and the optional bearer token
// checked by the shared request guard (src/main/security), as for web mode and gateways.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { InterceptorHost } from './host';
import { RequestGuard } from '../../security/request-guard';

export interface HttpServeOptions {
  /** 0 picks a free port. */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  path?: string;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** Extra host names accepted in Host besides loopback names and the bound host. */
  allowedHostnames?: string[];
  /** Extra exact origins a browser page may call from (its own origin is always accepted). */
  allowedOrigins?: string[];
  /** Upper bound on concurrent MCP sessions; at the bound the least recently used one is closed. Default 64. */
  maxSessions?: number;
}

export interface HttpServing {
  /** e.g. http://127.0.0.1:41234/mcp */
  readonly url: string;
  readonly port: number;
  /** Live MCP sessions. */
  sessionCount(): number;
  close(): Promise<void>;
}

export async function serveHostOverHttp(host: InterceptorHost, options: HttpServeOptions = {}): Promise<HttpServing> {
  const bindHost = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const maxSessions = options.maxSessions ?? 64;
  const guard = new RequestGuard({
    boundHost: bindHost,
    allowedHostnames: options.allowedHostnames,
    allowedOrigins: options.allowedOrigins,
    tokens: options.token ? new Map([[options.token, 'client']]) : null,
    tokenSource: '--token',
  });
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    if (url.pathname !== path) return reply(res, 404, `Not found: the MCP endpoint is ${path}`);
    const auth = guard.check(req);
    if (!auth.ok) {
      if (auth.status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
      return reply(res, auth.status, auth.message);
    }

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (!transport) return reply(res, 404, 'Unknown or expired MCP session; initialize a new one');
      // Re-insert: Map order doubles as least-recently-used order for eviction.
      sessions.delete(sessionId);
      sessions.set(sessionId, transport);
      return transport.handleRequest(req, res);
    }
    if (sessions.size >= maxSessions) {
      // Clients that vanish without DELETE must not lock others out: drop the least recently used session.
      const [oldestId, oldest] = sessions.entries().next().value as [string, NodeStreamableHTTPServerTransport];
      sessions.delete(oldestId);
      await oldest.close().catch(() => undefined);
    }
    // No session yet: only an `initialize` POST can start one; the transport rejects anything else.
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    const server = host.createServer();
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void server.close().catch(() => undefined);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
    if (!transport.sessionId) await server.close().catch(() => undefined);
  };

  const httpServer: HttpServer = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) reply(res, 500, `Internal error: ${(err as Error).message}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 0, bindHost, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const port = (httpServer.address() as AddressInfo).port;
  const urlHost = bindHost.includes(':') ? `[${bindHost}]` : bindHost;
  return {
    url: `http://${urlHost}:${port}${path}`,
    port,
    sessionCount: () => sessions.size,
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      sessions.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  // A JSON-RPC error body so that MCP clients surface the message.
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
}
