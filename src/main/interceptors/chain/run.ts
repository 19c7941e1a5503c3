// Executes a ChainPlan (A2): request = mutations → validations → sinks; response = validations →
// sinks → mutations. Produces the decision, the final payload and the complete trace.
//
// Whole-chain deadline (S4 aggregate deadline): in-flight invocations are aborted and, with those
// not yet invoked, become invocation failures routed by mode/failOpen. If one of them is active
// and fail-closed the chain blocks with status 'timeout'. If every one of them is audit or
// fail-open, the chain is allowed with the mutations committed so far (the same thing fail-open
// means for a single timeout) and the trace says `deadlineExceeded: true`, status 'success'.
//
// Payloads are immutable values inside the engine: it copies the caller's payload once (unless the caller
// gives it up: RunOptions.ownedPayload), never mutates a payload afterwards, and each mutation result
// replaces the current one. Handles must not mutate what they are given (the MCP client serializes it;
// MemoryServerHandle clones it), so every step's recorded input is an exact snapshot without a deep copy
// per step (~10-30 µs each).
import { setMaxListeners } from 'node:events';
import type { Phase } from '../../../shared/protocol/constants';
import type { InvocationContext } from '../../../shared/protocol/schemas';
import type { ChainTrace, DiscoveryRecord, TraceStep } from '../../../shared/trace/types';
import type { InterceptorServerHandle } from '../server-handle';
import type { RunScope } from './invoke-step';
import { cloneJson } from './json';
import { runMutations } from './passes/mutations';
import { runSinks } from './passes/sinks';
import type { ChainState } from './passes/state';
import { baseStep, nowMs, pushSkipped, setBlock, throwIfCancelled } from './passes/state';
import { runValidations } from './passes/validations';
import type { ChainPlan, ChainResult, DetachedSinks, PlannedEntry, RunOptions } from './types';
import { ChainCancelledError } from './types';

/**
 * The signal of every run that nothing can abort (no deadline, no caller's signal: the gateway's response
 * phase): one for all of them, never aborted, so that such a run makes no AbortController (~10 µs with its
 * signal). Its listeners are those of such runs' in-flight invocations, each removed by its handle when the
 * invocation ends (test/chain/never-aborted-signal.test.ts): no limit to warn at.
 */
const NEVER_ABORTED: AbortSignal = new AbortController().signal;
setMaxListeners(0, NEVER_ABORTED);

/** Start time, deadline and cancellation of one run; created before discovery so both are covered. */
export class ChainClock {
  readonly t0 = performance.now();
  readonly startedAt = new Date().toISOString();
  /**
   * Aborted at the deadline or when the caller aborts; every in-flight invocation listens on it. Without a
   * deadline only the caller can abort the run, so it is the caller's own signal: no AbortController (~6 µs)
   * and no listener on the caller's signal are made for it.
   */
  readonly signal: AbortSignal;
  private readonly controller?: AbortController;
  readonly deadline: { passed: boolean; timeoutMs?: number };
  private abortedPromise?: Promise<never>;
  private rejectAborted?: (err: Error) => void;
  private readonly timer?: ReturnType<typeof setTimeout>;
  private onCallerAbort?: () => void;

  constructor(
    timeoutMs: number | undefined,
    readonly callerSignal?: AbortSignal,
  ) {
    this.deadline = timeoutMs !== undefined ? { passed: false, timeoutMs } : { passed: false };
    if (timeoutMs === undefined) this.signal = callerSignal ?? NEVER_ABORTED;
    else {
      this.controller = new AbortController();
      this.signal = this.controller.signal;
    }
    // Every in-flight invocation (and the MCP client under it) listens on this one signal; a wide
    // chain legitimately exceeds Node's default of 10 listeners.
    if (this.signal !== NEVER_ABORTED) setMaxListeners(1000, this.signal);
    if (timeoutMs !== undefined) {
      this.timer = setTimeout(() => {
        this.deadline.passed = true;
        this.abort(new Error('chain deadline'));
      }, timeoutMs);
    }
    if (callerSignal && this.controller) {
      if (callerSignal.aborted) this.abort(callerSignal.reason);
      this.onCallerAbort = () => this.abort(callerSignal.reason);
      callerSignal.addEventListener('abort', this.onCallerAbort, { once: true });
    }
  }

  /**
   * Rejects when the run is aborted (deadline or caller); every invocation races against it. Made on first
   * use (none for a run nothing can abort), and rejected by abort() itself when the clock has its own signal
   * (an EventTarget listener costs ~8 µs, two runs per call): a run whose interceptors all answer at once
   * (in process) never races. On the caller's signal, one listener is added then, ahead of any invocation's own.
   */
  get aborted(): Promise<never> | undefined {
    // Nothing to race against (and a promise that never settles would keep every race's reaction).
    if (this.signal === NEVER_ABORTED) return undefined;
    if (!this.abortedPromise) {
      if (this.signal.aborted) this.abortedPromise = Promise.reject(new Error('chain aborted'));
      else {
        this.abortedPromise = new Promise<never>((_, reject) => (this.rejectAborted = reject));
        if (!this.controller) {
          this.onCallerAbort = () => this.rejectAborted!(new Error('chain aborted'));
          this.signal.addEventListener('abort', this.onCallerAbort, { once: true });
        }
      }
      this.abortedPromise.catch(() => undefined);
    }
    return this.abortedPromise;
  }

  private abort(reason: unknown): void {
    if (this.signal.aborted) return;
    // Rejected first, as the listener it replaces was the signal's first: a race against it settles as
    // "chain aborted" before any handle's own cancellation error.
    this.rejectAborted?.(new Error('chain aborted'));
    this.controller!.abort(reason);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.callerSignal && this.onCallerAbort) this.callerSignal.removeEventListener('abort', this.onCallerAbort);
  }
}

export interface ExecuteInput {
  plan: ChainPlan;
  payload: unknown;
  handleFor(server: string): InterceptorServerHandle | undefined;
  discovery?: DiscoveryRecord[];
  /** A fail-closed server that failed discovery (A8): the run blocks without invoking anything. */
  discoveryBlock?: { server: string; error: string };
  options?: RunOptions;
  /** Supplied by ChainRuntime so the deadline also covered discovery; created here otherwise. */
  clock?: ChainClock;
}

export async function executePlan(input: ExecuteInput): Promise<ChainResult> {
  const options = input.options ?? {};
  const clock = input.clock ?? new ChainClock(options.timeoutMs, options.signal);
  let result: ChainResult | undefined;
  try {
    result = await execute(input, clock, options);
    return result;
  } finally {
    if (!input.clock) disposeAfterSinks(clock, result);
  }
}

/** A clock's deadline still bounds detached sinks: it is disposed once they have ended. */
export function disposeAfterSinks(clock: ChainClock, result: ChainResult | undefined): void {
  if (result?.sinks) void result.sinks.done.then(() => clock.dispose());
  else clock.dispose();
}

async function execute(input: ExecuteInput, clock: ChainClock, options: RunOptions): Promise<ChainResult> {
  const { plan } = input;
  const inputPayload = options.ownedPayload ? input.payload : cloneJson(input.payload);
  const context: InvocationContext = { ...(options.context ?? {}) };
  if (context.timestamp === undefined) context.timestamp = clock.startedAt;
  const scope: RunScope = {
    event: plan.event,
    phase: plan.phase,
    context,
    t0: clock.t0,
    chainSignal: clock.signal,
    get chainAborted() {
      return clock.aborted; // made only if an invocation races (see ChainClock.aborted)
    },
    deadline: clock.deadline,
    handleFor: input.handleFor,
  };
  if (options.simulate) scope.simulate = options.simulate;
  if (options.stepGate) scope.stepGate = options.stepGate;
  if (options.maxPayloadBytes !== undefined) scope.payloadLimit = { maxBytes: options.maxPayloadBytes, sizes: new WeakMap() };
  const state: ChainState = {
    scope,
    steps: [],
    payload: inputPayload,
    modified: false,
    summary: { errors: 0, warnings: 0, infos: 0 },
  };
  if (options.signal) state.callerSignal = options.signal;
  throwIfCancelled(state);

  if (input.discoveryBlock) {
    const { server, error } = input.discoveryBlock;
    // A discovery cut off by the whole-chain deadline is a timeout, not a broken server.
    const status = clock.deadline.passed ? 'timeout' : 'discovery_failed';
    setBlock(state, { server, name: '(discovery)' }, status, 'discovery', `interceptor server '${server}' failed discovery and is fail-closed: ${error}`, [
      error,
    ]);
  }
  // Detached sinks (RunOptions.detachSinks) are not waited for, except by a stepped run.
  const sinks = await runPasses(plan, state, options.detachSinks === true && !options.stepGate);
  throwIfCancelled(state);
  if (clock.signal.aborted && !clock.deadline.passed) throw new ChainCancelledError(options.signal?.reason);

  for (const s of plan.skipped) pushSkipped(state, s, s.reason, s.detail);

  const blocked = state.block !== undefined;
  // S4 atomicity: a block discards every tentative change.
  const finalPayload = blocked ? inputPayload : state.payload;
  const trace: ChainTrace = {
    event: plan.event,
    phase: plan.phase,
    startedAt: clock.startedAt,
    durationMs: performance.now() - clock.t0,
    decision: blocked ? 'block' : 'allow',
    status: state.block?.status ?? 'success',
    inputPayload,
    finalPayload,
    modified: !blocked && state.modified,
    discovery: input.discovery ?? [],
    steps: state.steps,
    validationSummary: state.summary,
  };
  if (state.block) trace.blockedBy = state.block.info;
  if (clock.deadline.timeoutMs !== undefined) trace.timeoutMs = clock.deadline.timeoutMs;
  if (clock.deadline.passed) trace.deadlineExceeded = true;
  const result: ChainResult = { decision: trace.decision, finalPayload, trace };
  if (sinks) result.sinks = sinks;
  return result;
}

/** Runs the passes in the phase's order (A2); returns the detached sinks, if any are still running. */
async function runPasses(plan: ChainPlan, state: ChainState, detach: boolean): Promise<DetachedSinks | undefined> {
  const order: Phase = plan.phase;
  let sinks: DetachedSinks | undefined;
  if (order === 'request') {
    await runMutations(plan.mutations, state);
    await runValidations(plan.validations, state);
    if (detach) sinks = detachSinks(plan.sinks, state);
    else await runSinks(plan.sinks, state);
  } else {
    await runValidations(plan.validations, state);
    if (detach) sinks = detachSinks(plan.sinks, state);
    else await runSinks(plan.sinks, state);
    await runMutations(plan.mutations, state);
  }
  return sinks;
}

/**
 * Starts the sink pass without waiting for it ([path-speed]: a sink's round trip is not the caller's). It
 * runs on its own view of the state: the same snapshot (the payload at this point, which the response
 * phase's mutations then replace in `state`, not here), the same block and deadline, but its own steps and
 * no caller cancellation (the call has gone on by the time a sink answers; only the chain deadline and each
 * sink's own timeout end it). Its steps go into the trace where the pass order puts them once it ends.
 */
function detachSinks(entries: readonly PlannedEntry[], state: ChainState): DetachedSinks | undefined {
  if (entries.length === 0) return undefined;
  const at = state.steps.length;
  const own: ChainState = { ...state, steps: [], background: true };
  delete own.callerSignal;
  let settled = false;
  const settle = (steps: TraceStep[]): void => {
    if (settled) return;
    settled = true;
    state.steps.splice(at, 0, ...steps);
  };
  const startMs = nowMs(state);
  const ran = runSinks(entries, own);
  if (own.steps.length === entries.length) {
    // Every sink was skipped at once (after a block, past the deadline): nothing is in flight.
    ran.catch(() => undefined);
    settle(own.steps);
    return undefined;
  }
  const settleRan = (): void => settle(own.steps);
  let cut!: () => void;
  const cutOff = new Promise<void>((resolve) => (cut = resolve));
  return {
    done: Promise.race([ran.then(settleRan, settleRan), cutOff]),
    cutOff: (detail) => {
      if (settled) return;
      settle(entries.map((entry) => unansweredSink(entry, own, startMs, detail)));
      cut();
    },
  };
}

/** A detached sink given up on (DetachedSinks.cutOff): not recorded, as far as this trace can tell. */
function unansweredSink(entry: PlannedEntry, state: ChainState, startMs: number, detail: string): TraceStep {
  const step = baseStep(entry, startMs);
  step.durationMs = nowMs(state) - startMs;
  step.input = state.payload;
  step.result = { type: 'sink', interceptor: entry.name, phase: state.scope.phase, recorded: false };
  step.error = { kind: 'timeout', message: detail };
  step.outcome = 'not-recorded';
  return step;
}
