// The mutable state of one chain run shared by the three passes, and the helpers that turn an
// entry plus an invocation into a TraceStep. Routing of failures (S4) lives here so that every pass
// applies it identically: audit → continue, active+failOpen → continue, active+!failOpen → block.
import type { BlockInfo, ChainStatus, Pass, SkipReason, StepError, TraceStep } from '../../../../shared/trace/types';
import { invokeEntry, type Invocation, type RunScope } from '../invoke-step';
import type { PlannedEntry } from '../types';
import { ChainCancelledError } from '../types';

export interface ChainState {
  scope: RunScope;
  /** The caller's signal: when it fires the run rejects with ChainCancelledError. */
  callerSignal?: AbortSignal;
  steps: TraceStep[];
  /** The working payload: committed active mutations so far. */
  payload: unknown;
  modified: boolean;
  block?: { info: BlockInfo; status: ChainStatus; pass: Pass | 'discovery' };
  summary: { errors: number; warnings: number; infos: number };
  /** A detached sink pass (run.ts): its invocations are sent as background requests (InvokeOptions.background). */
  background?: boolean;
}

export function nowMs(state: ChainState): number {
  return performance.now() - state.scope.t0;
}

export function throwIfCancelled(state: ChainState): void {
  if (state.callerSignal?.aborted) throw new ChainCancelledError(state.callerSignal.reason);
}

export function baseStep(entry: PlannedEntry, startMs: number): TraceStep {
  const step: TraceStep = {
    id: entry.id,
    server: entry.server,
    name: entry.name,
    type: entry.type,
    pass: entry.pass,
    mode: entry.mode,
    failOpen: entry.failOpen,
    priority: entry.priority,
    startMs,
    durationMs: 0,
    outcome: 'skipped',
    shadow: entry.mode === 'audit',
  };
  if (entry.timeoutMs !== undefined) step.timeoutMs = entry.timeoutMs;
  return step;
}

export function pushSkipped(state: ChainState, entry: PlannedEntry, reason: SkipReason, detail?: string): TraceStep {
  const step = baseStep(entry, nowMs(state));
  step.skipped = reason;
  if (detail !== undefined) step.skipDetail = detail;
  state.steps.push(step);
  return step;
}

/** Fills a step from an invocation (timing, input, result, error, simulation flag). */
export function ranStep(entry: PlannedEntry, input: unknown, inv: Invocation): TraceStep {
  const step = baseStep(entry, inv.startMs);
  step.durationMs = inv.durationMs;
  step.input = input;
  if (inv.result !== undefined) step.result = inv.result;
  if (inv.error !== undefined) step.error = inv.error;
  if (inv.simulated) step.simulated = true;
  return step;
}

/** S4 routing of an invocation failure; returns true when the step blocks the chain. */
export function routeFailure(entry: PlannedEntry, step: TraceStep): boolean {
  if (entry.mode === 'audit' || entry.failOpen) {
    step.outcome = 'failed-open';
    return false;
  }
  step.outcome = 'blocked';
  return true;
}

export function failureStatus(state: ChainState, error: StepError, pass: Pass): ChainStatus {
  if (error.kind === 'timeout' && state.scope.deadline.passed) return 'timeout';
  return pass === 'mutation' ? 'mutation_failed' : 'validation_failed';
}

export function setBlock(
  state: ChainState,
  entry: Pick<PlannedEntry, 'server' | 'name'>,
  status: ChainStatus,
  pass: Pass | 'discovery',
  reason: string,
  messages: string[],
): void {
  if (state.block) return;
  state.block = {
    status,
    pass,
    info: { server: entry.server, interceptor: entry.name, phase: state.scope.phase, event: state.scope.event, reason, messages },
  };
}

export function failureReason(entry: PlannedEntry, error: StepError): string {
  const what = entry.type === 'mutation' ? 'mutation' : 'invocation';
  return `${what} of ${entry.id} failed (${error.kind}) and it is fail-closed: ${error.message}`;
}

/**
 * S4 aggregate deadline: an interceptor not yet invoked when the chain deadline passed becomes an
 * invocation failure, routed like any other. It is marked skipped 'chain-timeout' (never invoked).
 */
export function deadlineFailure(state: ChainState, entry: PlannedEntry): TraceStep {
  const step = pushSkipped(state, entry, 'chain-timeout', 'the whole-chain deadline passed before it was invoked');
  step.error = { kind: 'timeout', message: `Whole-chain deadline of ${state.scope.deadline.timeoutMs}ms passed before '${entry.name}' was invoked` };
  if (entry.type === 'sink') {
    step.outcome = 'not-recorded';
    return step;
  }
  if (routeFailure(entry, step)) setBlock(state, entry, 'timeout', entry.pass, failureReason(entry, step.error), [step.error.message]);
  return step;
}

/**
 * The shared start of the two parallel passes (validations, sinks): skip every entry after a block
 * (with `blockedReason`), fail every entry once the chain deadline has passed, otherwise invoke all
 * of them at once on one snapshot. Returns undefined when nothing was invoked.
 */
export async function invokeInParallel(
  entries: readonly PlannedEntry[],
  state: ChainState,
  blockedReason: SkipReason,
): Promise<{ snapshot: unknown; invocations: Invocation[] } | undefined> {
  throwIfCancelled(state);
  if (state.block) {
    const by = `the chain was blocked by ${state.block.info.server}/${state.block.info.interceptor}`;
    for (const e of entries) pushSkipped(state, e, blockedReason, by);
    return undefined;
  }
  if (state.scope.deadline.passed) {
    for (const e of entries) deadlineFailure(state, e);
    return undefined;
  }
  if (entries.length === 0) return undefined;
  const snapshot = state.payload;
  const invocations = await Promise.all(entries.map((e) => invokeEntry(e, snapshot, state.scope, state.background === true)));
  throwIfCancelled(state);
  return { snapshot, invocations };
}
