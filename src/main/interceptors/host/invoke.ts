// Runs one `interceptor/invoke` on the host: config check, deadline, handler, result shaping.
// Every failure is a JSON-RPC error (never a validation result, S4 rule E1):
//   config fails configSchema → -32602; handler throws or returns a malformed result → -32603
//   with {interceptor, reason}; deadline passes → -32000 with {interceptor, timeoutMs, phase} (A10).
import { ProtocolError } from '@modelcontextprotocol/server';
import { ErrorCode } from '../../../shared/protocol/constants';
import { canonicalJson } from '../../../shared/protocol/canonical';
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
  /** The invoker's cancellation (notifications/cancelled) for this request. */
  requestSignal?: AbortSignal;
  /** Runs the handler elsewhere (a worker thread) when it accepts the call; aborted with the call. */
  offload?: HandlerOffload;
  /** Size of params.payload as JSON, for the offload's choice. */
  payloadBytes?: number;
}

class MalformedResult extends Error {}

export async function executeInvoke(entry: RegisteredInterceptor, params: InvokeParams, options: ExecuteOptions): Promise<InterceptorResult> {
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

  // An invoker may ask for any deadline; a Node timer past ~24.8 days fires at once, so a longer one is
  // held to a day (the bound the gateway's own config takes) rather than failing every call at once.
  const requested = params.timeoutMs && params.timeoutMs > 0 ? params.timeoutMs : options.defaultTimeoutMs;
  const timeoutMs = Math.min(requested, MAX_DURATION_MS);
  // The handler's signal is made the first time it is read: an AbortController and a listener on the
  // invoker's signal cost ~10 µs per invoke (ten invokes per tools/call with the samples), and most
  // handlers finish without looking. One read after a timeout or a cancellation gets an aborted signal.
  let controller: AbortController | undefined;
  let abortedWith: { reason: unknown } | undefined;
  const abort = (reason: unknown): void => {
    abortedWith ??= { reason };
    controller?.abort(reason);
  };
  const onCancel = (): void => abort(options.requestSignal?.reason);
  const handlerSignal = (): AbortSignal => {
    if (!controller) {
      controller = new AbortController();
      if (abortedWith) controller.abort(abortedWith.reason);
      else if (options.requestSignal?.aborted) controller.abort(options.requestSignal.reason);
      else options.requestSignal?.addEventListener('abort', onCancel, { once: true });
    }
    return controller.signal;
  };
  let timer: NodeJS.Timeout | undefined;
  // Armed only for work that is still running when the handler returns (a promise, or an offloaded call):
  // a synchronous handler cannot be interrupted, and its result, there the moment it returns, won the race
  // against the timer anyway. A timer and a promise less per invoke of the (mostly synchronous) samples.
  const withDeadline = <T>(work: Promise<T>): Promise<T> =>
    Promise.race([
      work,
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
          abort(new Error('timeout'));
        }, timeoutMs);
      }),
    ]);

  const ctx: HandlerContext<never> = {
    config: config as never,
    context: params.context,
    event: params.event,
    phase: params.phase,
    get signal() {
      return handlerSignal();
    },
  };
  const started = performance.now();
  try {
    // The handler may be sync or async and may throw synchronously (caught below like a rejection).
    const offload = options.offload?.accepts(reg.name, options.payloadBytes ?? 0) ? options.offload : undefined;
    const produced = offload
      ? offload.run({ name: reg.name, payload: params.payload, config, context: params.context, event: params.event, phase: params.phase }, handlerSignal())
      : (reg.handler as (p: unknown, c: HandlerContext<never>) => unknown)(params.payload, ctx);
    const raw = isThenable(produced) ? await withDeadline(Promise.resolve(produced)) : produced;
    const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
    return shapeResult(entry, params, raw, durationMs);
  } catch (err) {
    if (err instanceof ProtocolError) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    const prefix = err instanceof MalformedResult ? 'handler returned a malformed result: ' : '';
    throw new ProtocolError(ErrorCode.InternalError, `Interceptor invocation failed: ${prefix}${reason}`, {
      interceptor: reg.name,
      reason: `${prefix}${reason}`,
    });
  } finally {
    clearTimeout(timer);
    if (controller) options.requestSignal?.removeEventListener('abort', onCancel);
  }
}

function shapeResult(entry: RegisteredInterceptor, params: InvokeParams, raw: unknown, durationMs: number): InterceptorResult {
  const { registration: reg } = entry;
  const common = { interceptor: reg.name, type: reg.type, phase: params.phase, durationMs };
  let candidate: Record<string, unknown>;
  if (reg.type === 'validation') {
    if (typeof raw === 'boolean') candidate = { valid: raw };
    else candidate = asObject(raw, 'a validation handler must return {valid, …} or a boolean');
  } else if (reg.type === 'mutation') {
    candidate = asObject(raw, 'a mutation handler must return {modified, payload}');
    if (candidate.modified === false) {
      if (!('payload' in candidate) || candidate.payload === undefined) {
        candidate = { ...candidate, payload: params.payload };
      } else if (candidate.payload !== params.payload && canonicalJson(candidate.payload) !== canonicalJson(params.payload)) {
        throw new MalformedResult('modified:false with a payload different from the input');
      }
    } else if (candidate.modified === true && candidate.payload === undefined) {
      throw new MalformedResult('modified:true without a payload');
    }
  } else {
    candidate = raw === undefined ? { recorded: true } : asObject(raw, 'a sink handler must return {recorded, metrics?}');
  }
  // Host-owned fields win over whatever the handler put there (both SDK hosts overwrite them).
  const shaped = { ...candidate, ...common };
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
