// One invocation as the engine sees it: per-interceptor deadline, the chain's deadline and the
// caller's cancellation all abort it; failure simulation replaces it; and the result is checked
// (echo, shape, modified:false keeping the payload) so a malformed answer is routed as a failure.
import { ErrorCode, type Phase } from '../../../shared/protocol/constants';
import { jsonByteLength, payloadTooLarge } from '../../../shared/protocol/payload-size';
import { depthLimited, MAX_PAYLOAD_DEPTH, nestedDeeperThan, RECORD_DEPTH } from '../../../shared/protocol/payload-depth';
import type { InterceptorResult, InvocationContext, InvokeParams } from '../../../shared/protocol/schemas';
import type { StepError } from '../../../shared/trace/types';
import { InvokeError } from '../server-handle';
import type { InterceptorServerHandle, InvokeOptions } from '../server-handle';
import { deepEqual } from './json';
import type { FailureSimulator, PlannedEntry, StepGate } from './types';

/** Shared by every step of one run. */
export interface RunScope {
  event: string;
  phase: Phase;
  context: InvocationContext;
  t0: number;
  /** Aborts at the whole-chain deadline or on the caller's cancellation. */
  chainSignal: AbortSignal;
  /** Rejects when chainSignal aborts (one listener per run, shared by every invocation); none when nothing can abort the run. */
  chainAborted: Promise<never> | undefined;
  /** Set when the chain deadline passed (as opposed to the caller cancelling). */
  deadline: { passed: boolean; timeoutMs?: number };
  simulate?: FailureSimulator;
  stepGate?: StepGate;
  /** Serializes the invocations of a stepped run (one pause at a time, in plan order). */
  stepQueue?: Promise<unknown>;
  /** RunOptions.maxPayloadBytes; sizes are memoized per payload object (payloads are never mutated). */
  payloadLimit?: { maxBytes: number; sizes: WeakMap<object, number> };
  handleFor(server: string): InterceptorServerHandle | undefined;
}

export interface Invocation {
  startMs: number;
  durationMs: number;
  result?: InterceptorResult;
  error?: StepError;
  simulated?: boolean;
}

export function invokeEntry(entry: PlannedEntry, payload: unknown, scope: RunScope, background = false): Promise<Invocation> {
  const gate = scope.stepGate;
  if (!gate) return invokeOnce(entry, payload, scope, background);
  const target = { id: entry.id, server: entry.server, name: entry.name, type: entry.type, pass: entry.pass };
  const turn = (scope.stepQueue ?? Promise.resolve()).then(async () => {
    await gate.before(target, payload, scope.chainSignal);
    const inv = await invokeOnce(entry, payload, scope);
    gate.after(target, {
      ...(inv.result !== undefined ? { result: inv.result } : {}),
      ...(inv.error ? { error: inv.error.message } : {}),
      durationMs: inv.durationMs,
    });
    return inv;
  });
  scope.stepQueue = turn.catch(() => undefined);
  return turn;
}

async function invokeOnce(entry: PlannedEntry, payload: unknown, scope: RunScope, background = false): Promise<Invocation> {
  const startMs = performance.now() - scope.t0;
  const finish = (part: Omit<Invocation, 'startMs' | 'durationMs'>): Invocation => ({
    startMs,
    durationMs: performance.now() - scope.t0 - startMs,
    ...part,
  });

  const forced = scope.simulate?.({ id: entry.id, server: entry.server, name: entry.name, type: entry.type, event: scope.event, phase: scope.phase });
  if (forced === 'timeout' || forced === 'crash') {
    const message = forced === 'timeout' ? `Interceptor '${entry.name}' timed out (simulated)` : `Interceptor '${entry.name}' crashed (simulated)`;
    return finish({ error: { kind: forced, message }, simulated: true });
  }

  const tooLarge = payloadOverLimit(entry, payload, scope);
  if (tooLarge) return finish({ error: tooLarge });

  const handle = scope.handleFor(entry.server);
  if (!handle) return finish({ error: { kind: 'transport', message: `No connection to interceptor server '${entry.server}'` } });

  const params: InvokeParams = { name: entry.name, event: scope.event, phase: scope.phase, payload, context: scope.context };
  if (entry.config !== undefined) params.config = entry.config;
  if (entry.timeoutMs !== undefined) params.timeoutMs = entry.timeoutMs;

  // A handle that answers at once (in process, a synchronous handler) needs no race: there is nothing
  // left to interrupt, and no promise, timer or controller is made for it.
  if (handle.invokeNow && entry.timeoutMs === undefined) {
    let answer: InterceptorResult | Promise<InterceptorResult>;
    try {
      answer = handle.invokeNow(params, background ? { signal: scope.chainSignal, background } : { signal: scope.chainSignal });
    } catch (err) {
      return finish({ error: toStepError(err, entry, scope, false) });
    }
    if (!(answer instanceof Promise)) return checked(entry, scope.phase, payload, answer, finish);
    return settle(entry, payload, scope, answer, finish);
  }

  // Without a per-interceptor deadline the chain's own signal is enough: Node's AbortController and
  // EventTarget cost ~10 µs each, so the hot path creates none per invocation.
  let signal = scope.chainSignal;
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unlink: (() => void) | undefined;
  const chainAborted = scope.chainAborted;
  const races: Promise<never>[] = chainAborted ? [chainAborted] : [];
  if (entry.timeoutMs !== undefined) {
    const controller = new AbortController();
    signal = controller.signal;
    const onChainAbort = () => controller.abort(scope.chainSignal.reason);
    if (scope.chainSignal.aborted) onChainAbort();
    else {
      scope.chainSignal.addEventListener('abort', onChainAbort, { once: true });
      unlink = () => scope.chainSignal.removeEventListener('abort', onChainAbort);
    }
    races.push(
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          timedOut = true;
          controller.abort(new Error('interceptor timeout'));
          reject(new Error('interceptor timeout'));
        }, entry.timeoutMs);
      }),
    );
  }
  try {
    const invokeOptions: InvokeOptions = entry.timeoutMs !== undefined ? { timeoutMs: entry.timeoutMs, signal } : { signal };
    if (background) invokeOptions.background = true;
    // The race guarantees the engine never waits on a handle that ignores its signal.
    const result = await Promise.race([handle.invoke(params, invokeOptions), ...races]);
    return checked(entry, scope.phase, payload, result, finish);
  } catch (err) {
    return finish({ error: toStepError(err, entry, scope, timedOut) });
  } finally {
    if (timer) clearTimeout(timer);
    unlink?.();
  }
}

type Finish = (part: Omit<Invocation, 'startMs' | 'durationMs'>) => Invocation;

/** An answer that came later from a handle that could have answered at once: raced as invoke() is. */
async function settle(entry: PlannedEntry, payload: unknown, scope: RunScope, answer: Promise<InterceptorResult>, finish: Finish): Promise<Invocation> {
  try {
    const chainAborted = scope.chainAborted;
    return checked(entry, scope.phase, payload, await (chainAborted ? Promise.race([answer, chainAborted]) : answer), finish);
  } catch (err) {
    return finish({ error: toStepError(err, entry, scope, false) });
  }
}

/** The invocation of a result, as a malformed-result failure when checkResult finds a problem. */
function checked(entry: PlannedEntry, phase: Phase, payload: unknown, result: InterceptorResult, finish: Finish): Invocation {
  const problem = checkResult(entry, phase, payload, result);
  if (problem === TOO_DEEP) {
    // Kept for the record cut short: the trace, its record and the payload forwarded are walked recursively.
    const cut = { ...result, payload: depthLimited((result as { payload?: unknown }).payload, RECORD_DEPTH) } as InterceptorResult;
    return finish({ result: cut, error: { kind: 'malformed', message: problem } });
  }
  return problem ? finish({ result, error: { kind: 'malformed', message: problem } }) : finish({ result });
}

/** The refusal of a payload over RunOptions.maxPayloadBytes, or undefined when it may be sent. */
function payloadOverLimit(entry: PlannedEntry, payload: unknown, scope: RunScope): StepError | undefined {
  const limit = scope.payloadLimit;
  if (!limit) return undefined;
  let bytes = payload !== null && typeof payload === 'object' ? limit.sizes.get(payload) : undefined;
  if (bytes === undefined) {
    bytes = jsonByteLength(payload);
    if (payload !== null && typeof payload === 'object') limit.sizes.set(payload, bytes);
  }
  if (bytes <= limit.maxBytes) return undefined;
  return {
    kind: 'rpc',
    code: ErrorCode.InvalidParams,
    message: `payload of ${bytes} bytes is over the per-invoke limit of ${limit.maxBytes} bytes (maxInvokePayloadBytes); not sent to '${entry.name}'`,
    data: payloadTooLarge(entry.name, bytes, limit.maxBytes),
  };
}

function toStepError(err: unknown, entry: PlannedEntry, scope: RunScope, timedOut: boolean): StepError {
  if (timedOut) return { kind: 'timeout', message: `Interceptor '${entry.name}' timed out after ${entry.timeoutMs}ms` };
  if (scope.chainSignal.aborted) {
    if (scope.deadline.passed) {
      return { kind: 'timeout', message: `Whole-chain deadline of ${scope.deadline.timeoutMs}ms passed while '${entry.name}' was running` };
    }
    return { kind: 'cancelled', message: 'Cancelled by the caller' };
  }
  if (err instanceof InvokeError) {
    const out: StepError = { kind: err.kind, message: err.message };
    if (err.code !== undefined) out.code = err.code;
    if (err.data !== undefined) out.data = err.data;
    return out;
  }
  return { kind: 'transport', message: err instanceof Error ? err.message : String(err) };
}

const TOO_DEEP = `mutation result payload nests deeper than ${MAX_PAYLOAD_DEPTH} levels of objects and arrays, which the gateway does not take; return a flatter payload`;

/** S4 malformed results: they are invocation failures, routed by mode/failOpen. */
export function checkResult(entry: PlannedEntry, phase: Phase, input: unknown, result: unknown): string | undefined {
  if (!result || typeof result !== 'object') return 'result is not an object';
  const r = result as Record<string, unknown>;
  if (r.type !== entry.type) return `result type '${String(r.type)}' does not match the interceptor type '${entry.type}'`;
  if (r.interceptor !== entry.name) return `result names interceptor '${String(r.interceptor)}', expected '${entry.name}'`;
  if (r.phase !== phase) return `result phase '${String(r.phase)}' does not match '${phase}'`;
  if (entry.type === 'validation' && typeof r.valid !== 'boolean') return 'validation result has no boolean "valid"';
  if (entry.type === 'sink' && typeof r.recorded !== 'boolean') return 'sink result has no boolean "recorded"';
  if (entry.type === 'mutation') {
    if (typeof r.modified !== 'boolean') return 'mutation result has no boolean "modified"';
    // Checked before anything walks it (the comparison below, the chain, the record, the forwarded request).
    if (nestedDeeperThan(r.payload, MAX_PAYLOAD_DEPTH)) return TOO_DEEP;
    if (r.modified && r.payload === undefined) return 'mutation result says modified:true but carries no payload';
    if (!r.modified && r.payload !== undefined && !deepEqual(r.payload, input)) {
      return 'mutation result says modified:false but its payload differs from the input';
    }
  }
  return undefined;
}
