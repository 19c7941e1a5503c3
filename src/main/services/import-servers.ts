// Turns one server imported from an MCP client's config into a gateway config fronting it.
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
    listen: { transport: 'stdio' },
  };
}
