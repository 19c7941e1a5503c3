// The gateway's side of interception: which interceptor servers apply to a principal (static ones plus the
// principal's dynamic ones, case-insensitive), one chain runtime per session over them (the chain engine
// does discovery, caching, ordering and the passes), the interceptedEvents filter, and the gateway's own
// answers to interceptors/list and interceptor/invoke when exposeInterceptorProtocol is on.
import type { GatewayConfig, InterceptorServerEntry } from '../../shared/config/schema';
import { dynamicServersFor } from '../../shared/config/parse';
import type { Phase } from '../../shared/protocol/constants';
import { ErrorCode, METHOD_LIST, NEVER_INTERCEPTED } from '../../shared/protocol/constants';
import { errorResponse, resultResponse, type JsonRpcRequest, type JsonRpcResponse } from './wire/jsonrpc';
import { InvokeParamsSchema, type InvocationContext } from '../../shared/protocol/schemas';
import { descriptorToWire, resultToWire } from '../../shared/protocol/wire';
import { hooksCoverPattern } from '../../shared/protocol/events';
import { ChainRuntime, type ChainResult, type FailureSimulator, type StepGate } from '../interceptors/chain';
import { InterceptorServerClient } from '../interceptors/client';
import { connectionOfEntry } from '../interceptors/client/connection';
import type { InterceptorServerHandle } from '../interceptors/server-handle';
import type { WireTap } from '../interceptors/client/wire-tap';
import { bundledSamplesHandle } from '../interceptors/bundled';

export type RpcFailure = { code: number; message: string; data?: unknown };

export interface InterceptionOptions {
  log?: (line: string) => void;
  /** Builds the handle for a configured interceptor server (tests may substitute in-memory hosts). */
  createHandle?: (entry: InterceptorServerEntry) => InterceptorServerHandle & { close?: () => Promise<void> };
  /** Playground failure simulation: consulted before each invocation (forces a timeout or crash). */
  simulate?: FailureSimulator;
  /** Message capture: a tap for a server's connection, or undefined when messages are not captured. */
  wire?: (server: string) => WireTap | undefined;
}

type ClosableHandle = InterceptorServerHandle & { close?: () => Promise<void> };

export class Interception {
  private readonly staticHandles: ClosableHandle[];
  private readonly dynamicHandles = new Map<string, ClosableHandle[]>();
  private readonly events: ReadonlySet<string> | null;
  /** Exchanges running on this interception (see lease); a hot reload retires it once they are done. */
  private leases = 0;
  private retirement?: { promise: Promise<void>; done: () => void };

  constructor(
    private readonly config: GatewayConfig,
    private readonly options: InterceptionOptions = {},
  ) {
    this.events = config.interceptedEvents && config.interceptedEvents.length > 0 ? new Set(config.interceptedEvents) : null;
    this.staticHandles = config.staticInterceptors.map((e) => this.createHandle(e));
  }

  get servers(): readonly ClosableHandle[] {
    return [...this.staticHandles, ...[...this.dynamicHandles.values()].flat()];
  }

  /** The handles that apply to a principal: static first (configured order), then its dynamic ones. */
  handlesFor(principal: string | undefined): ClosableHandle[] {
    const entries = dynamicServersFor(this.config, principal);
    if (entries.length === 0) return this.staticHandles;
    const key = principal!.toLowerCase();
    let dynamic = this.dynamicHandles.get(key);
    if (!dynamic) {
      dynamic = entries.map((e) => this.createHandle(e));
      this.dynamicHandles.set(key, dynamic);
    }
    return [...this.staticHandles, ...dynamic];
  }

  /** A chain runtime for one session (its protocol version drives compat checks, A17). */
  runtimeFor(principal: string | undefined, protocolVersion?: string): ChainRuntime | null {
    const handles = this.handlesFor(principal);
    if (handles.length === 0) return null;
    return new ChainRuntime(handles, {
      overrides: this.config.overrides,
      ...(protocolVersion ? { protocolVersion } : {}),
    });
  }

  /** interceptedEvents (null = all); initialize, ping, completion/complete and notifications never are. */
  intercepts(event: string): boolean {
    if (NEVER_INTERCEPTED.has(event) || event.startsWith('notifications/')) return false;
    return this.events === null || this.events.has(event);
  }

  run(
    runtime: ChainRuntime,
    event: string,
    phase: Phase,
    payload: unknown,
    context: InvocationContext,
    signal?: AbortSignal,
    stepGate?: StepGate,
    /** A live call's sinks run off its path (ChainResult.sinks); a replay waits for them. */
    detachSinks = false,
  ): Promise<ChainResult> {
    return runtime.run(event, phase, payload, {
      ...(stepGate ? { stepGate } : {}),
      ...(detachSinks ? { detachSinks } : {}),
      context,
      // The payload was parsed for this call (off the wire, or a replay's request): the gateway forwards it as
      // it is or replaces it, and never changes it.
      ownedPayload: true,
      // A stepped run waits on a person between interceptors: a whole-chain deadline would expire while
      // they read and fail the rest. Each interceptor's own timeout still applies (it starts after the gate).
      ...(this.config.timeoutMs !== undefined && !stepGate ? { timeoutMs: this.config.timeoutMs } : {}),
      maxPayloadBytes: this.config.maxInvokePayloadBytes,
      ...(signal ? { signal } : {}),
      ...(this.options.simulate ? { simulate: this.options.simulate } : {}),
    });
  }

  /** Events the merged interceptors hook (the capability's supportedEvents hint). */
  async supportedEvents(runtime: ChainRuntime | null): Promise<string[]> {
    if (!runtime) return [];
    const outcome = await runtime.discover().catch(() => undefined);
    const events = new Set<string>();
    for (const d of outcome?.interceptors ?? []) for (const h of d.descriptor.hooks) for (const e of h.events) events.add(e);
    return [...events].sort();
  }

  /** `interceptors/list` answered by the gateway: the merged list, optionally filtered by event (§1.2). */
  async list(runtime: ChainRuntime | null, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
    if (!runtime) return { interceptors: [] };
    const outcome = await runtime.discover();
    const event = typeof params?.event === 'string' ? params.event : undefined;
    const interceptors = outcome.interceptors
      .filter((d) => event === undefined || hooksCoverPattern(d.descriptor.hooks, event))
      .map((d) => descriptorToWire(d.descriptor));
    return { interceptors };
  }

  /** `interceptor/invoke` routed to the server that listed the name; an ambiguous name is -32602. */
  async invoke(runtime: ChainRuntime | null, params: unknown): Promise<Record<string, unknown> | RpcFailure> {
    const parsed = InvokeParamsSchema.safeParse(params);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { code: ErrorCode.InvalidParams, message: `Invalid params: ${issue?.path.join('.') || 'params'}: ${issue?.message}` };
    }
    const name = parsed.data.name;
    const outcome = runtime ? await runtime.discover() : { interceptors: [] };
    const owners = outcome.interceptors.filter((d) => d.descriptor.name === name);
    if (owners.length === 0) return { code: ErrorCode.InvalidParams, message: `Interceptor '${name}' not found`, data: { name } };
    if (owners.length > 1) {
      return {
        code: ErrorCode.InvalidParams,
        message: `Interceptor name '${name}' is ambiguous: offered by ${owners.map((o) => o.server).join(', ')}`,
        data: { name, servers: owners.map((o) => o.server) },
      };
    }
    const handle = runtime!.servers.find((h) => h.name === owners[0]!.server)!;
    try {
      const result = await handle.invoke(parsed.data, parsed.data.timeoutMs !== undefined ? { timeoutMs: parsed.data.timeoutMs } : {});
      return resultToWire(result) as unknown as Record<string, unknown>;
    } catch (err) {
      const e = err as { code?: number; message: string; data?: unknown };
      return { code: typeof e.code === 'number' ? e.code : ErrorCode.InternalError, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) };
    }
  }

  /**
   * Holds this interception (its server connections) open for one exchange, so that a request that
   * started before a hot reload finishes both phases on the chain it started on. Call the returned
   * function once the exchange is answered or dropped; extra calls are ignored.
   */
  lease(): () => void {
    this.leases++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.leases--;
      if (this.leases === 0 && this.retirement) this.retirement.done();
    };
  }

  /** Replaced by a hot reload: closes once the last in-flight exchange on it has released its lease. */
  retire(): Promise<void> {
    if (!this.retirement) {
      let done!: () => void;
      const drained = new Promise<void>((resolve) => (done = resolve));
      this.retirement = { promise: drained.then(() => this.close()), done };
      if (this.leases === 0) done();
    }
    return this.retirement.promise;
  }

  /** The gateway's own answer to interceptors/list or interceptor/invoke (exposeInterceptorProtocol). */
  async answer(runtime: ChainRuntime | null, req: JsonRpcRequest): Promise<JsonRpcResponse> {
    try {
      const result = req.method === METHOD_LIST ? await this.list(runtime, req.params) : await this.invoke(runtime, req.params);
      if ('code' in result && typeof result.code === 'number' && 'message' in result) {
        const failure = result as RpcFailure;
        return errorResponse(req.id, failure.code, failure.message, failure.data);
      }
      return resultResponse(req.id, result);
    } catch (err) {
      return errorResponse(req.id, ErrorCode.InternalError, (err as Error).message);
    }
  }

  async close(): Promise<void> {
    const all = this.servers;
    this.dynamicHandles.clear();
    await Promise.all(all.map((h) => h.close?.().catch(() => undefined)));
  }

  private createHandle(entry: InterceptorServerEntry): ClosableHandle {
    if (this.options.createHandle) return this.options.createHandle(entry);
    const log = this.options.log;
    if (entry.transport === 'bundled') {
      // No wire to capture: the trace's steps hold each invoke's payload and result.
      return bundledSamplesHandle(entry.name, {
        failOpen: entry.failOpen ?? false,
        ...(log ? { log: (line: string) => log(`[interceptors ${entry.name}] ${line}`) } : {}),
      });
    }
    const wire = this.options.wire?.(entry.name);
    return new InterceptorServerClient({
      ...(wire ? { wire } : {}),
      name: entry.name,
      failOpen: entry.failOpen ?? false,
      connection: connectionOfEntry(entry),
      ...(log
        ? {
            onStderr: (chunk: string) => {
              for (const line of chunk.split('\n')) if (line.trim()) log(`[interceptors ${entry.name}] ${line}`);
            },
          }
        : {}),
    });
  }
}
