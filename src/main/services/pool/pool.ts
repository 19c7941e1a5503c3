// The app's own connections to the interceptor servers of each gateway config: what the Chain screen
// discovers with and what the Playground invokes by hand and dry-runs on. They are separate from a
// running gateway's connections on purpose: a hand-made invoke never disturbs live traffic, and a
// stopped gateway can still be explored. Connections are reused per (gateway, server entry) and
// replaced when that entry changes in the config.
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ApiError } from '../../../shared/api/envelope';
import type { InterceptorServerState } from '../../../shared/api/models';
import type { GatewayConfig, InterceptorServerEntry } from '../../../shared/config';
import type { InvocationContext } from '../../../shared/protocol/schemas';
import { resultToWire } from '../../../shared/protocol/wire';
import { InterceptorServerClient } from '../../interceptors/client';
import { InvokeError } from '../../interceptors/server-handle';
import type { ServerPoolPort } from '../ports';
import type { Logger } from '../environment';
import { configuredServers, endpointTarget } from '../gateway-summary';
import { RpcTap, type RawExchange } from './rpc-tap';
import { bundledSamplesTransport } from '../../interceptors/bundled';

export interface PoolInvokeParams {
  name: string;
  event: string;
  phase: 'request' | 'response';
  payload: unknown;
  config?: Record<string, unknown>;
  timeoutMs?: number;
  context?: InvocationContext;
}

export interface PoolInvokeOutcome {
  result?: unknown;
  error?: { kind: string; message: string; code?: number; data?: unknown };
  durationMs: number;
  /** The `interceptor/invoke` request and its response as they crossed the wire. */
  rpc?: RawExchange;
}

interface Pooled {
  fingerprint: string;
  client: InterceptorServerClient;
  tap: RpcTap;
  /** Serialises hand-made invokes so each raw exchange is attributed to its call. */
  queue: Promise<unknown>;
}

export class InterceptorServerPool implements ServerPoolPort {
  private readonly gateways = new Map<string, Map<string, Pooled>>();

  constructor(private readonly logger?: Logger) {}

  states(gatewayId: string, config: GatewayConfig): InterceptorServerState[] {
    const pooled = this.gateways.get(gatewayId);
    return configuredServers(config).map((entry) => {
      const p = pooled?.get(entry.name);
      const status = p?.client.status;
      const state: InterceptorServerState['status'] =
        status?.state === 'connected' ? 'connected' : status?.state === 'failed' ? 'failed' : status ? 'pending' : 'stopped';
      return {
        name: entry.name,
        transport: entry.transport,
        target: endpointTarget(entry),
        failOpen: entry.failOpen === true,
        status: state,
        ...(status?.lastError && state !== 'connected' ? { error: status.lastError } : {}),
      };
    });
  }

  /** Handles for every configured server (static first, then dynamic), for the chain service. */
  handles(gatewayId: string, config: GatewayConfig, entries: readonly InterceptorServerEntry[]): InterceptorServerClient[] {
    return entries.map((entry) => this.pooled(gatewayId, config, entry.name).client);
  }

  async discover(gatewayId: string, config: GatewayConfig, server: string, refresh: boolean) {
    const { client } = this.pooled(gatewayId, config, server);
    const t0 = performance.now();
    try {
      const result = await client.discover({ refresh });
      return { interceptors: result.interceptors, skipped: result.skipped, durationMs: performance.now() - t0 };
    } catch (err) {
      throw new ApiError('failed', `Discovery on interceptor server "${server}" failed: ${(err as Error).message}`);
    }
  }

  async invoke(gatewayId: string, config: GatewayConfig, server: string, params: PoolInvokeParams): Promise<PoolInvokeOutcome> {
    const pooled = this.pooled(gatewayId, config, server);
    const run = async (): Promise<PoolInvokeOutcome> => {
      // Discovery first: the client checks results against the listed type of the interceptor.
      await pooled.client.discover().catch(() => undefined);
      const wire = {
        name: params.name,
        event: params.event,
        phase: params.phase,
        payload: params.payload,
        ...(params.config ? { config: params.config } : {}),
        context: { timestamp: new Date().toISOString(), ...params.context },
      };
      const t0 = performance.now();
      const { value, error, raw } = await pooled.tap.capture(() =>
        pooled.client.invoke(wire, params.timeoutMs !== undefined ? { timeoutMs: params.timeoutMs } : {}),
      );
      const durationMs = performance.now() - t0;
      const rpc = raw.request ? raw : undefined;
      if (error === undefined) return { result: resultToWire(value!), durationMs, ...(rpc ? { rpc } : {}) };
      const e =
        error instanceof InvokeError
          ? {
              kind: error.kind,
              message: error.message,
              ...(error.code !== undefined ? { code: error.code } : {}),
              ...(error.data !== undefined ? { data: error.data } : {}),
            }
          : { kind: 'transport', message: error instanceof Error ? error.message : String(error) };
      return { error: e, durationMs, ...(rpc ? { rpc } : {}) };
    };
    const next = pooled.queue.then(run, run);
    pooled.queue = next.catch(() => undefined);
    return next;
  }

  async release(gatewayId: string): Promise<void> {
    const servers = this.gateways.get(gatewayId);
    this.gateways.delete(gatewayId);
    await Promise.all([...(servers?.values() ?? [])].map((p) => p.client.close().catch(() => undefined)));
  }

  async close(): Promise<void> {
    await Promise.all([...this.gateways.keys()].map((id) => this.release(id)));
  }

  private pooled(gatewayId: string, config: GatewayConfig, server: string): Pooled {
    const entry = configuredServers(config).find((e) => e.name === server);
    if (!entry) {
      const names = configuredServers(config).map((e) => `"${e.name}"`);
      throw new ApiError('not_found', `Gateway "${gatewayId}" has no interceptor server "${server}"${names.length ? ` (it has ${names.join(', ')})` : ''}.`);
    }
    let servers = this.gateways.get(gatewayId);
    if (!servers) {
      servers = new Map();
      this.gateways.set(gatewayId, servers);
    }
    const fingerprint = JSON.stringify(entry);
    const existing = servers.get(server);
    if (existing && existing.fingerprint === fingerprint) return existing;
    if (existing) void existing.client.close().catch(() => undefined);
    const created = this.connect(entry, fingerprint);
    servers.set(server, created);
    return created;
  }

  private connect(entry: InterceptorServerEntry, fingerprint: string): Pooled {
    const tap = new RpcTap();
    const label = endpointTarget(entry);
    const client = new InterceptorServerClient({
      name: entry.name,
      failOpen: entry.failOpen === true,
      // Interactive use on a possibly busy machine: a slow first start (node + tsx, a cold npx) is not a failure.
      initializeTimeoutMs: 30_000,
      // A custom connection builds the same real transports as the invoker would, with the tap on them.
      connection: {
        transport: 'custom',
        label,
        connect: async () =>
          tap.attach(
            entry.transport === 'stdio'
              ? stdioTransport(entry, (line) => this.logger?.info(`[pool ${entry.name}] ${line}`))
              : entry.transport === 'bundled'
                ? await bundledSamplesTransport((line) => this.logger?.info(`[pool ${entry.name}] ${line}`))
                : new StreamableHTTPClientTransport(new URL(entry.endpoint), { requestInit: { headers: entry.headers ?? {} } }),
          ),
      },
    });
    return { fingerprint, client, tap, queue: Promise.resolve() };
  }
}

function stdioTransport(entry: Extract<InterceptorServerEntry, { transport: 'stdio' }>, log: (line: string) => void): StdioClientTransport {
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.arguments,
    env: { ...getDefaultEnvironment(), ...(entry.env ?? {}) },
    cwd: entry.cwd,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) log(line);
  });
  return transport;
}
