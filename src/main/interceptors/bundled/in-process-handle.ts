// An interceptor server hosted inside the gateway's own process: an InterceptorHost invoked by function
// call. The bundled samples behind `"transport": "bundled"` run this way. Over stdio every invoke costs two
// pipe writes, each waking another process (on a two-core machine, tens of microseconds apiece) plus a
// JSON-RPC pass through the SDK on both ends; ten invokes per tools/call made that path 12× a bare relay.
// Here an invoke is the host's own checks (params, config schema, deadline), the handler, and the same
// result checks the MCP client applies (result-check.ts), so a chain sees exactly what it would see over
// a wire: the same results, the same malformed-result and timeout errors, routed by mode and failOpen.
import { ListResultSchema, type InterceptorResult, type InterceptorType, type InvokeParams } from '../../../shared/protocol/schemas';
import { toInvokeError } from '../client/errors';
import { checkDescriptors } from '../client/result-check';
import type { ConnectionStatus } from '../client/status';
import type { InterceptorHost } from '../host/host';
import { InvokeError, type DiscoveryResult, type InterceptorServerHandle, type InvokeOptions } from '../server-handle';

export class InProcessHostHandle implements InterceptorServerHandle {
  readonly failOpen: boolean;
  private discovered?: DiscoveryResult;
  private readonly types = new Map<string, InterceptorType>();
  private closed = false;

  constructor(
    readonly name: string,
    private readonly host: InterceptorHost,
    options: { failOpen?: boolean } = {},
  ) {
    this.failOpen = options.failOpen ?? false;
  }

  /** What the gateway's status shows: an in-process host is up from the start until the gateway closes it. */
  get status(): ConnectionStatus {
    return { server: this.name, state: this.closed ? 'closed' : 'connected', target: 'bundled samples (in process)', failures: 0 };
  }

  async discover(options: { refresh?: boolean } = {}): Promise<DiscoveryResult> {
    this.throwIfClosed();
    if (this.discovered && !options.refresh) return this.discovered;
    // Checked like a remote server's list: one malformed descriptor is skipped, not fatal.
    const listed = ListResultSchema.parse(this.host.list({}));
    const { accepted, skipped } = checkDescriptors(listed.interceptors, new Set());
    this.types.clear();
    for (const d of accepted) this.types.set(d.name, d.type);
    this.discovered = { interceptors: accepted, skipped };
    return this.discovered;
  }

  /** The cached discovery (what discover() answers without a refresh), none once closed. */
  discoveredNow(): DiscoveryResult | undefined {
    return this.closed ? undefined : this.discovered;
  }

  async invoke(params: InvokeParams, options: InvokeOptions = {}): Promise<InterceptorResult> {
    return this.invokeNow(params, options);
  }

  /**
   * invoke(), answering a synchronous handler synchronously: the result, or an InvokeError thrown. The
   * chain engine takes a result that is there at once without a race against its deadline (nothing is
   * left to interrupt), so a sample costs no promise on either side.
   */
  invokeNow(params: InvokeParams, options: InvokeOptions = {}): InterceptorResult | Promise<InterceptorResult> {
    const requested = options.timeoutMs ?? params.timeoutMs;
    const timeoutMs = requested === undefined ? undefined : Math.max(1, Math.ceil(requested));
    if (options.signal?.aborted) throw new InvokeError('cancelled', `invocation of '${params.name}' was cancelled before it started`);
    this.throwIfClosed();
    const call: InvokeParams = { name: params.name, event: params.event, phase: params.phase, payload: params.payload };
    if (params.config !== undefined && params.config !== null) call.config = params.config;
    if (params.context !== undefined && params.context !== null) call.context = params.context;
    if (params._meta !== undefined && params._meta !== null) call._meta = params._meta;
    if (timeoutMs !== undefined) call.timeoutMs = timeoutMs;
    let answer: InterceptorResult | Promise<InterceptorResult>;
    try {
      // The host copies the payload for its handler (the engine shares payload objects with its trace).
      answer = this.host.invokeLocalNow(call, options.signal);
    } catch (err) {
      throw toInvokeError(err, { server: this.name, interceptor: params.name, timeoutMs, signal: options.signal });
    }
    if (!isPromise(answer)) return this.checked(answer, params, options);
    return answer.then(
      (result) => this.checked(result, params, options),
      (err: unknown) => {
        throw toInvokeError(err, { server: this.name, interceptor: params.name, timeoutMs, signal: options.signal });
      },
    );
  }

  private checked(result: InterceptorResult, params: InvokeParams, options: InvokeOptions): InterceptorResult {
    if (options.signal?.aborted) throw new InvokeError('cancelled', `invocation of '${params.name}' was cancelled`);
    // The host shaped the result with the wire's schema and stamped this call's name, type and phase: the
    // client's checks (result-check.ts) would parse it a second time to find the same. The type is
    // compared still: a host whose registration changed since discovery must not pass as the old type.
    const expected = this.types.get(params.name);
    if (expected && result.type !== expected) {
      throw new InvokeError(
        'malformed',
        `interceptor '${params.name}' on server '${this.name}' returned a ${result.type} result, expected ${expected}`,
        undefined,
        { result },
      );
    }
    return result;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.host.close();
  }

  private throwIfClosed(): void {
    if (this.closed) throw new InvokeError('transport', `interceptor server '${this.name}' (bundled, in process) is closed`);
  }
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return value instanceof Promise;
}
