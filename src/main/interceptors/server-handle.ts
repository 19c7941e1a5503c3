// The contract between the chain engine and whatever reaches an interceptor server.
// The invoker client (client/) implements it over real MCP transports; tests may implement it
// in memory. The engine only ever talks to this interface.
import type { InterceptorDescriptor, InterceptorResult, InvokeParams } from '../../shared/protocol/schemas';
import type { StepErrorKind } from '../../shared/trace/types';

export interface DiscoveryResult {
  interceptors: InterceptorDescriptor[];
  /** Malformed descriptors skipped with a reason (never a crash). */
  skipped: { name?: string; reason: string }[];
}

export interface InvokeOptions {
  /** Invoker-side deadline: sent as params.timeoutMs and enforced locally too. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Nobody waits on this answer (a detached sink, [path-speed]): a transport that batches its writes may
   * send the request after the caller's own writes of this turn (the forward to the backend) instead of
   * before them. The request is serialized at once all the same: what it carries is the payload of now.
   */
  background?: boolean;
}

export interface InterceptorServerHandle {
  /** Configured server name; with the interceptor name it forms the identity `server/name` (A7). */
  readonly name: string;
  /** A8: when discovery of this server fails, continue without it instead of blocking. */
  readonly failOpen: boolean;
  /** Cached per connection (A15); `refresh` forces a new `interceptors/list`. Throws on failure. */
  discover(options?: { refresh?: boolean; signal?: AbortSignal }): Promise<DiscoveryResult>;
  /**
   * What discover() would answer from its cache right now, or undefined when it would have to ask (not
   * connected, never listed, invalidated): lets a chain run skip an await per server per message.
   */
  discoveredNow?(): DiscoveryResult | undefined;
  /**
   * Invokes one interceptor. Resolves with a result validated against the result schemas
   * and checked to echo name/type/phase; anything else rejects with an InvokeError.
   * Must not mutate `params.payload`: the chain engine shares payload objects between steps and
   * its trace (a transport serializes it anyway; an in-process handle must copy it).
   */
  invoke(params: InvokeParams, options?: InvokeOptions): Promise<InterceptorResult>;
  /**
   * invoke(), for a handle that can answer at once (an in-process host with a synchronous handler): the
   * result is returned, or an InvokeError thrown, synchronously; otherwise a promise as invoke() gives.
   */
  invokeNow?(params: InvokeParams, options?: InvokeOptions): InterceptorResult | Promise<InterceptorResult>;
}

/** Every way an invocation can fail; the engine routes all of them by mode/failOpen. */
export class InvokeError extends Error {
  constructor(
    readonly kind: StepErrorKind,
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'InvokeError';
  }
}
