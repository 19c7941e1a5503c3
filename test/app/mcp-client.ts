// A real MCP client (SDK v2, Streamable HTTP) for sending traffic through a gateway in tests.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export async function connectHttpClient(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'ic-app-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {});
  await client.connect(transport);
  return client;
}

/** The first bearer token of a gateway config's http listener. */
export function firstToken(config: Record<string, unknown>): string | undefined {
  const listen = config.listen as { tokens?: Record<string, string> } | undefined;
  return Object.keys(listen?.tokens ?? {})[0];
}
