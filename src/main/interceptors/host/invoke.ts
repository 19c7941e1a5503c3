// Runs one `interceptor/invoke` on the host: config check, deadline, handler, result shaping.
// Every failure is a JSON-RPC error (never a validation result, S4 rule E1):
//   config fails configSchema → -32602; handler throws or returns a malformed result → -32603
//   with {interceptor, reason}; deadline passes → -32000 with {interceptor, timeoutMs, phase} (A10).
//
// A synchronous handler is run, checked and shaped synchronously (executeInvokeNow returns its result,
// not a promise): the bundled samples invoked in process (ten invokes per tools/call) then cost no
// promise, no closure and no timer each; only work still running when the handler returns goes async.
import { ProtocolError } from '@modelcontextprotocol/server';
import { ErrorCode } from '../../../shared/protocol/constants';
import { canonicalJson, setOwnKey } from '../../../shared/protocol/canonical';
import { InterceptorResultSchema, type InterceptorResult, type InvokeParams } from '../../../shared/protocol/schemas';
import { resultToWire } from '../../../shared/protocol/wire';
import { passesResultSchema } from '../../../shared/protocol/result-fast-check';
import type { RegisteredInterceptor } from './registration';
import type { HandlerContext } from './types';
import type { HandlerOffload } from './worker-pool';
import { MAX_DURATION_MS } from '../../../shared/config/durations';

export interface ExecuteOptions {
  /** Used when the invoke carries no (or a zero) `timeoutMs`. */
  defaultTimeoutMs: number;
  /**
   * The invoker's cancellation (notifications/cancelled) for this request, or a function that makes it:
   * the stdio fast path (stdio-transport.ts) makes one only for a handler that looks at its signal.
   */
  requestSignal?: AbortSignal | (() => AbortSignal);
  /** Runs the handler elsewhere (a worker thread) when it accepts the call; aborted with the call. */
  offload?: HandlerOffload;
  /** Size of params.payload as JSON, for the offload's choice. */
  payloadBytes?: number;
}

class MalformedResult extends Error {}

/**
 * The handler's cancellation, made the first time it is read: an AbortController and a listener on the
 * invoker's signal cost ~10 µs per invoke, and most handlers finish without looking. A read after a
 * timeout or a cancellation gets an aborted signal.
 */
class HandlerCancellation {
  private controller: AbortController | undefined;
  private abortedWith: { reason: unknown } | undefined;
  private requestSignal: AbortSignal | undefined;

  constructor(private readonly requestSignalSource: AbortSignal | (() => AbortSignal) | undefined) {}

  readonly onCancel = (): void => this.abort(this.requestSignal?.reason);

  abort(reason: unknown): void {
    this.abortedWith ??= { reason };
    this.controller?.abort(reason);
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      const source = this.requestSignalSource;
      this.requestSignal = typeof source === 'function' ? source() : source;
      if (this.abortedWith) this.controller.abort(this.abortedWith.reason);
      else if (this.requestSignal?.aborted) this.controller.abort(this.requestSignal.reason);
      else this.requestSignal?.addEventListener('abort', this.onCancel, { once: true });
    }
    return this.controller.signal;
  }

  dispose(): void {
    if (this.controller) this.requestSignal?.removeEventListener('abort', this.onCancel);
  }
}

/** What a handler is given besides the payload; `signal` is made on first read (HandlerCancellation). */
class InvokeContext implements HandlerContext<never> {
  constructor(
    readonly config: never,
    readonly context: InvokeParams['context'],
    readonly event: string,
    readonly phase: InvokeParams['phase'],
    private readonly cancellation: HandlerCancellation,
  ) {}
  get signal(): AbortSignal {
    return this.cancellation.signal;
  }
}

/** Runs one invoke; a synchronous handler's result is returned (or its failure thrown) synchronously, other work settles in a promise. */
export function executeInvokeNow(entry: RegisteredInterceptor, params: InvokeParams, options: ExecuteOptions): InterceptorResult | Promise<InterceptorResult> {
  const { registration: reg } = entry;
  const config = params.config ?? reg.defaultConfig ?? {};
  if (entry.validateConfig) {
    const problem = entry.validateConfig(config);
    if (problem) {
      throw new ProtocolError(ErrorCode.InvalidParams, `Invalid config for interceptor '${reg.name}': ${problem}`, {
        interceptor: reg.name,
        reason: problem,
      });
    }
  }
  const cancellation = new HandlerCancellation(options.requestSignal);
  const started = performance.now();
  let produced: unknown;
  let settled = true;
  try {
    // The handler may be sync or async and may throw synchronously (caught like a rejection).
    const offload = options.offload?.accepts(reg.name, options.payloadBytes ?? 0) ? options.offload : undefined;
    produced = offload
      ? offload.run({ name: reg.name, payload: params.payload, config, context: params.context, event: params.event, phase: params.phase }, cancellation.signal)
      : (reg.handler as (p: unknown, c: HandlerContext<never>) => unknown)(
          params.payload,
          new InvokeContext(config as never, params.context, params.event, params.phase, cancellation),
        );
    if (!isThenable(produced)) return shapeResult(entry, params, produced, elapsedMs(started));
    settled = false;
  } catch (err) {
    throw invocationFailure(err, reg.name);
  } finally {
    if (settled) cancellation.dispose();
  }
  return settleLater(entry, params, options, produced, cancellation, started);
}

/**
 * Work still running when the handler returned (a promise, an offloaded call) races the deadline. A
 * synchronous handler cannot be interrupted, and its result, there the moment it returns, won that race
 * anyway: so the timer is armed only here.
 */
async function settleLater(
  entry: RegisteredInterceptor,
  params: InvokeParams,
  options: ExecuteOptions,
  produced: PromiseLike<unknown>,
  cancellation: HandlerCancellation,
  started: number,
): Promise<InterceptorResult> {
  const { registration: reg } = entry;
  // An invoker may ask for any deadline; a Node timer past ~24.8 days fires at once, so a longer one is
  // held to a day (the bound the gateway's own config takes) rather than failing every call at once.
  const requested = params.timeoutMs && params.timeoutMs > 0 ? params.timeoutMs : options.defaultTimeoutMs;
  const timeoutMs = Math.min(requested, MAX_DURATION_MS);
  let timer: NodeJS.Timeout | undefined;
  try {
    const raw = await Promise.race([
      Promise.resolve(produced),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          // Reject first: aborting makes an offloaded call reject at once, and the race must see the timeout.
          reject(
            new ProtocolError(ErrorCode.Timeout, `Interceptor '${reg.name}' timed out after ${timeoutMs}ms`, {
              interceptor: reg.name,
              timeoutMs,
              phase: params.phase,
            }),
          );
          cancellation.abort(new Error('timeout'));
        }, timeoutMs);
      }),
    ]);
    return shapeResult(entry, params, raw, elapsedMs(started));
  } catch (err) {
    throw invocationFailure(err, reg.name);
  } finally {
    clearTimeout(timer);
    cancellation.dispose();
  }
}

function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}

/** A failure as the invoker sees it: ProtocolErrors pass; anything else is -32603 with the reason. */
function invocationFailure(err: unknown, interceptor: string): ProtocolError {
  if (err instanceof ProtocolError) return err;
  const reason = err instanceof Error ? err.message : String(err);
  const prefix = err instanceof MalformedResult ? 'handler returned a malformed result: ' : '';
  return new ProtocolError(ErrorCode.InternalError, `Interceptor invocation failed: ${prefix}${reason}`, {
    interceptor,
    reason: `${prefix}${reason}`,
  });
}

function shapeResult(entry: RegisteredInterceptor, params: InvokeParams, raw: unknown, durationMs: number): InterceptorResult {
  const { registration: reg } = entry;
  let candidate: Record<string, unknown>;
  let echoInput = false;
  if (reg.type === 'validation') {
    if (typeof raw === 'boolean') candidate = { valid: raw };
    else candidate = asObject(raw, 'a validation handler must return {valid, …} or a boolean');
  } else if (reg.type === 'mutation') {
    candidate = asObject(raw, 'a mutation handler must return {modified, payload}');
    if (candidate.modified === false) {
      if (!('payload' in candidate) || candidate.payload === undefined) {
        echoInput = true;
      } else if (candidate.payload !== params.payload && canonicalJson(candidate.payload) !== canonicalJson(params.payload)) {
        throw new MalformedResult('modified:false with a payload different from the input');
      }
    } else if (candidate.modified === true && candidate.payload === undefined) {
      throw new MalformedResult('modified:true without a payload');
    }
  } else {
    candidate = raw === undefined ? { recorded: true } : asObject(raw, 'a sink handler must return {recorded, metrics?}');
  }
  // A copy (handlers may return a shared constant), in which the host-owned fields win over whatever
  // the handler put there (both SDK hosts overwrite them). Built key by key: a spread of the handlers'
  // many result shapes took the engine's slow path, ~5 µs per invoke.
  const shaped: Record<string, unknown> = {};
  for (const key of Object.keys(candidate)) setOwnKey(shaped, key, candidate[key]);
  if (echoInput) shaped.payload = params.payload;
  shaped.interceptor = reg.name;
  shaped.type = reg.type;
  shaped.phase = params.phase;
  shaped.durationMs = durationMs;
  // The common shapes skip zod's copying pass; anything else (and every error message) goes through it.
  if (passesResultSchema(shaped)) return resultToWire(shaped);
  const parsed = InterceptorResultSchema.safeParse(shaped);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MalformedResult(`${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return resultToWire(parsed.data);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function asObject(raw: unknown, expectation: string): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new MalformedResult(`${expectation}, got ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}`);
  }
  return raw as Record<string, unknown>;
}
