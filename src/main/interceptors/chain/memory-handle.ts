// An InterceptorServerHandle whose interceptors are plain functions in this process: used by the
// engine's fast unit tests, the engine-overhead bench and dry runs that need no server. It mimics
// the wire where it matters: payloads are cloned both ways, results are checked like the client
// does, and discovery is cached until refresh (A15).
import type { Phase } from '../../../shared/protocol/constants';
import { ErrorCode } from '../../../shared/protocol/constants';
import type { InterceptorDescriptor, InterceptorResult, InvocationContext, InvokeParams } from '../../../shared/protocol/schemas';
import type { DiscoveryResult, InterceptorServerHandle, InvokeOptions } from '../server-handle';
import { InvokeError } from '../server-handle';
import { cloneJson } from './json';

export interface MemoryInvocation {
  payload: unknown;
  event: string;
  phase: Phase;
  config?: Record<string, unknown>;
  context?: InvocationContext;
  timeoutMs?: number;
  /** Sent as a background request (InvokeOptions.background): a detached sink. */
  background?: boolean;
  signal: AbortSignal;
}

/** Returns the result without `interceptor`/`phase` (filled in like a host does) or a full result. */
export type MemoryHandler = (call: MemoryInvocation) => unknown;

export interface MemoryInterceptor {
  descriptor: InterceptorDescriptor;
  handler: MemoryHandler;
}

export interface MemoryHandleOptions {
  failOpen?: boolean;
  /** Makes discover() throw (to exercise A8). */
  discoveryError?: string;
  /** Raw descriptors returned as-is (to exercise malformed-descriptor skipping). */
  extraRawDescriptors?: unknown[];
}

/** Shared by calls made without a signal (an AbortController per call would cost ~10 µs). */
const NEVER_ABORTED = new AbortController().signal;

export class MemoryServerHandle implements InterceptorServerHandle {
  readonly failOpen: boolean;
  discoverCalls = 0;
  listCalls = 0;
  readonly invocations: InvokeParams[] = [];
  private cache?: DiscoveryResult;
  private readonly byName: Map<string, MemoryInterceptor>;

  constructor(
    readonly name: string,
    private readonly interceptors: MemoryInterceptor[],
    private readonly options: MemoryHandleOptions = {},
  ) {
    this.failOpen = options.failOpen ?? false;
    this.byName = new Map(interceptors.map((i) => [i.descriptor.name, i]));
  }

  async discover(options?: { refresh?: boolean }): Promise<DiscoveryResult> {
    this.discoverCalls++;
    if (this.options.discoveryError) throw new Error(this.options.discoveryError);
    if (!this.cache || options?.refresh) {
      this.listCalls++;
      this.cache = {
        interceptors: [...this.interceptors.map((i) => cloneJson(i.descriptor)), ...((this.options.extraRawDescriptors ?? []) as InterceptorDescriptor[])],
        skipped: [],
      };
    }
    return this.cache;
  }

  async invoke(params: InvokeParams, options: InvokeOptions = {}): Promise<InterceptorResult> {
    this.invocations.push(params);
    const entry = this.byName.get(params.name);
    if (!entry) throw new InvokeError('rpc', `Interceptor '${params.name}' not found`, ErrorCode.InvalidParams);
    const signal = options.signal ?? NEVER_ABORTED;
    const call: MemoryInvocation = { payload: cloneJson(params.payload), event: params.event, phase: params.phase, signal };
    if (params.config !== undefined) call.config = params.config;
    if (params.context !== undefined) call.context = params.context;
    if (params.timeoutMs !== undefined) call.timeoutMs = params.timeoutMs;
    if (options.background) call.background = true;
    let raw: unknown;
    try {
      raw = await entry.handler(call);
    } catch (err) {
      if (err instanceof InvokeError) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      throw new InvokeError('crash', `Interceptor '${params.name}' failed: ${reason}`, ErrorCode.InternalError, { interceptor: params.name, reason });
    }
    const result = { interceptor: params.name, type: entry.descriptor.type, phase: params.phase, ...(raw as object) };
    return cloneJson(result) as InterceptorResult;
  }
}

/** Resolves when `signal` aborts: a handler that never answers until cancelled. */
export function hangUntilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(new Error('cancelled'));
    signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
  });
}
