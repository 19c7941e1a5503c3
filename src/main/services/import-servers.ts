// Turns one server imported from an MCP client's config into a gateway config fronting it.
import { randomBytes } from 'node:crypto';
import type { ImportedServer } from '../../shared/api/models';

export function importedServerConfig(server: ImportedServer, interceptorServers: unknown): Record<string, unknown> {
  const backend =
    server.transport === 'stdio'
      ? {
          transport: 'stdio',
          name: server.name,
          command: server.command,
          arguments: server.args ?? [],
          ...(server.env ? { env: server.env } : {}),
          ...(server.cwd ? { cwd: server.cwd } : {}),
        }
      : { transport: server.transport, name: server.name, endpoint: server.url, ...(server.headers ? { headers: server.headers } : {}) };
  return {
    serverInfo: { name: server.name, version: '1.0.0' },
    backend,
    staticInterceptors: interceptorServers,
    // HTTP on a free loopback port with a token, so it runs inside the console; clients that launch it
    // over stdio run this same file with `--listen stdio` ("Connect a client").
    listen: { transport: 'http', host: '127.0.0.1', port: 0, path: '/mcp', tokens: { [randomBytes(18).toString('base64url')]: 'local-user' } },
  };
}
