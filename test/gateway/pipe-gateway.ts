// A Gateway run in the test's process on a pair of in-memory streams (its stdio listener), a real backend
// process behind it and in-memory interceptor handles: for tests that look at the gateway's records and
// invocations directly.
import { PassThrough } from 'node:stream';
import { parseGatewayConfig } from '../../src/shared/config';
import type { MemoryRecorder } from '../../src/shared/trace/execution';
import { Gateway } from '../../src/main/gateway';
import type { MemoryServerHandle } from '../../src/main/interceptors/chain';
import { rawBackend, waitFor } from './helpers';

/** A client on a pair of in-memory streams, for a Gateway run in the test's process (its stdio listener). */
export class PipeClient {
  readonly input = new PassThrough();
  readonly output = new PassThrough();
  readonly messages: Record<string, unknown>[] = [];
  private buffer = '';
  constructor() {
    this.output.setEncoding('utf8');
    this.output.on('data', (t: string) => {
      this.buffer += t;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        this.messages.push(JSON.parse(this.buffer.slice(0, nl)) as Record<string, unknown>);
        this.buffer = this.buffer.slice(nl + 1);
      }
    });
  }
  async request(id: number | string, method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    this.input.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    await waitFor(() => this.messages.some((m) => m.id === id), 10_000, `response ${id}`);
    return this.messages.find((m) => m.id === id)!;
  }
}

/**
 * Starts a gateway on `client`'s streams, and initializes it: the raw backend, one interceptor server named after
 * `handle` and served by it, and a stdio listener, unless `config` says otherwise.
 */
export async function startPipeGateway(
  config: Record<string, unknown>,
  options: { recorder: MemoryRecorder; client: PipeClient; handle: MemoryServerHandle },
): Promise<Gateway> {
  const parsed = parseGatewayConfig({
    backend: rawBackend(),
    staticInterceptors: [{ transport: 'stdio', name: options.handle.name, command: 'unused' }],
    listen: { transport: 'stdio' },
    ...config,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const { recorder, client, handle } = options;
  const gateway = new Gateway(parsed.config, { recorder, stdio: { input: client.input, output: client.output }, createHandle: () => handle });
  await gateway.start();
  await client.request('init', 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } });
  return gateway;
}
