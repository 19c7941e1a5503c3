// The environment a stdio backend starts with: the MCP SDK's minimal default (HOME, LOGNAME, PATH, SHELL,
// TERM, USER; on Windows the system folders and PATH) plus exactly what the config's `env` names. Not the
// gateway's whole environment: a gateway often runs with PGPASSWORD (its history), OTEL headers, cloud
// credentials or API tokens of its own, and a backend sees them all otherwise. An MCP server may hand its
// environment to any client (server-everything's `get-env` tool does), and whatever a tool returns lands in
// the history. Interceptor servers are started the same way (src/main/interceptors/client/open-connection.ts).
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';

/**
 * `configured`: the backend entry's `env` (it wins over the defaults, e.g. its own PATH). A variable a
 * backend needs from the shell the gateway was started in must be named there.
 */
export function backendEnvironment(configured: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return { ...getDefaultEnvironment(), ...(configured ?? {}) };
}
