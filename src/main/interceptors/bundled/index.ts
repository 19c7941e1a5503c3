// `"transport": "bundled"`: the bundled samples (what `interceptor-console serve-samples` serves) hosted in
// this process. The gateway's chains invoke them by function call (in-process-handle.ts); the Playground
// pool and the chain editor's probe talk MCP to them over an in-memory transport, so that their raw
// JSON-RPC views and the MCP client's status work as for any other server.
import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/client';
import { createSampleHost } from '../samples';
import { InProcessHostHandle } from './in-process-handle';

export { InProcessHostHandle } from './in-process-handle';

/** What the status and summaries show as the target of a bundled entry. */
export const BUNDLED_TARGET = 'bundled samples (in process)';

/** The samples' host with its own state (cross-boundary-guard's taint) and worker threads for large payloads. */
function sampleHost(log?: (line: string) => void) {
  return createSampleHost({ workers: true, ...(log ? { log } : {}) });
}

/** A chain's handle on the bundled samples: one host per handle, closed with it. */
export function bundledSamplesHandle(name: string, options: { failOpen?: boolean; log?: (line: string) => void } = {}): InProcessHostHandle {
  return new InProcessHostHandle(name, sampleHost(options.log), options.failOpen !== undefined ? { failOpen: options.failOpen } : {});
}

/** An MCP client transport to a fresh bundled host (in memory); closing the transport closes the host. */
export async function bundledSamplesTransport(log?: (line: string) => void): Promise<Transport> {
  const host = sampleHost(log);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = host.createServer();
  const previous = server.onclose;
  server.onclose = () => {
    previous?.();
    void host.close();
  };
  await server.connect(serverSide);
  return clientSide;
}
