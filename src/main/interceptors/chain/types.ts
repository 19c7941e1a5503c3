// Data types of the chain engine. Everything here is plain data (JSON-serializable) so that the
// plan computed by `orderChain` can cross the app API and the UI never re-implements ordering.
import type { Phase } from '../../../shared/protocol/constants';
import type { Hook, InterceptorDescriptor, InterceptorType, InvocationContext, Mode, PriorityHint } from '../../../shared/protocol/schemas';
import type { ChainTrace, Pass, SkipReason } from '../../../shared/trace/types';

/** One descriptor as listed by one server, with the two positions the tie-breaks need (A6, A7). */
export interface DiscoveredInterceptor {
  /** Configured server name; identity is `server/name`. */
  server: string;
  /** Position of the server in the configured server list. */
  serverIndex: number;
  /** Position of the descriptor in that server's `interceptors/list` result. */
  listIndex: number;
  descriptor: InterceptorDescriptor;
}

/** Invoker policy for one interceptor (A11), keyed `<server>/<interceptor>` in an OverrideMap. */
export interface InterceptorOverride {
  enabled?: boolean;
  mode?: Mode;
  failOpen?: boolean;
  priorityHint?: PriorityHint;
  /** Per-invocation deadline: sent as params.timeoutMs and enforced by the engine. */
  timeoutMs?: number;
  /** Forwarded as params.config on every invoke (A12). */
  config?: Record<string, unknown>;
  /** May only narrow the declared hooks; widening throws OverrideWideningError. */
  hooks?: Hook[];
}

export type OverrideMap = Readonly<Record<string, InterceptorOverride>>;

/** An interceptor with every override applied: what the engine actually runs. */
export interface PlannedEntry {
  /** `server/name` */
  id: string;
  server: string;
  name: string;
  type: InterceptorType;
  pass: Pass;
  serverIndex: number;
  listIndex: number;
  enabled: boolean;
  mode: Mode;
  failOpen: boolean;
  /** Effective priority for the planned phase. */
  priority: number;
  timeoutMs?: number;
  config?: Record<string, unknown>;
  /** Effective hooks (declared, or the narrowed override). */
  hooks: Hook[];
}

export interface SkippedEntry extends PlannedEntry {
  reason: SkipReason;
  detail?: string;
}

/** The ordered chain for one event and phase, plus everything that does not apply and why. */
export interface ChainPlan {
  event: string;
  phase: Phase;
  /** Effective priority ascending, then ordinal name, then server order, then host list order. */
  mutations: PlannedEntry[];
  /** No semantic order (they run in parallel); listed by ordinal name, server order, list order. */
  validations: PlannedEntry[];
  sinks: PlannedEntry[];
  skipped: SkippedEntry[];
}

export interface OrderInput {
  event: string;
  phase: Phase;
  interceptors: readonly DiscoveredInterceptor[];
  overrides?: OverrideMap;
  /** Negotiated MCP protocol version (a date string such as 2025-06-18), for compat (A17). */
  protocolVersion?: string;
  /** Servers whose discovery failed fail-open: server → error. Their (last known) interceptors are skipped. */
  failedServers?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
}

export type SimulatedFailure = 'timeout' | 'crash';

/** Playground failure simulation: return a failure kind to force it instead of invoking. */
export type FailureSimulator = (target: {
  id: string;
  server: string;
  name: string;
  type: InterceptorType;
  event: string;
  phase: Phase;
}) => SimulatedFailure | undefined | null;

/** What a step gate is told about the interceptor about to run / that just ran. */
export interface StepTarget {
  id: string;
  server: string;
  name: string;
  type: InterceptorType;
  pass: Pass;
}

/**
 * The debugger's step (breakpoints): awaited before each invocation, told after it. While a gate is
 * set, invocations go through it one at a time (parallel validations are stepped in plan order). Time
 * spent waiting in `before` would count against a whole-chain deadline: the gateway sets none for a
 * stepped run.
 */
export interface StepGate {
  /** Resolves when the interceptor may run; must resolve (not hang) once `signal` aborts. */
  before(target: StepTarget, payload: unknown, signal: AbortSignal): Promise<void>;
  after(target: StepTarget, outcome: { result?: unknown; error?: string; durationMs: number }): void;
}

export interface RunOptions {
  /** Breakpoint stepping: pauses before each invocation (see StepGate). */
  stepGate?: StepGate;
  /** Forwarded to every invoke; `timestamp` is filled with the chain start when absent. */
  context?: InvocationContext | null;
  /** Whole-chain deadline in ms (status 'timeout' when it causes a block). */
  timeoutMs?: number;
  /** Cancels everything: in-flight invocations are aborted and run() rejects with ChainCancelledError. */
  signal?: AbortSignal;
  simulate?: FailureSimulator;
  /** Negotiated protocol version of this message's session (compat, A17); overrides the runtime's. */
  protocolVersion?: string;
  /**
   * Largest payload (UTF-8 bytes of its JSON) sent to an interceptor; a larger one is not sent and the
   * step fails (kind 'rpc', data.reason 'payload too large'), routed by mode/failOpen. Unset: no limit.
   */
  maxPayloadBytes?: number;
  /**
   * Sinks off the caller's path (A4: they never block and never mutate): run() returns once the decision
   * and the final payload are known, while sink invocations may still be in flight. ChainResult.sinks.done then
   * resolves when their steps are in the trace, at the place they take in the pass order. Ignored with a
   * stepGate (a stepped run shows every interceptor in turn).
   */
  detachSinks?: boolean;
  /**
   * The caller gives the payload up: nothing changes it, or any object in it, once handed over (the gateway's
   * payload is the message it parsed off the wire and forwards as it is or replaced, never changed). The
   * engine then takes it as its input instead of copying it first (a structured clone, ~12 µs per phase of
   * a tools/call); the trace's inputPayload is then that very object.
   */
  ownedPayload?: boolean;
}

export interface ChainResult {
  decision: 'allow' | 'block';
  finalPayload: unknown;
  trace: ChainTrace;
  /** Set when sinks were detached (RunOptions.detachSinks) and may still be running. */
  sinks?: DetachedSinks;
}

/** A sink pass run off the caller's path (RunOptions.detachSinks). */
export interface DetachedSinks {
  /** Resolves, never rejects, once the pass's steps are in `trace.steps`. A record of the trace must wait for it. */
  done: Promise<void>;
  /**
   * Stops waiting for sinks still running: each goes into the trace now as not recorded, its error saying
   * `detail`, and `done` resolves; an answer arriving later is dropped. A record of a call already answered so
   * never waits on a hanging sink for its whole timeout.
   */
  cutOff(detail: string): void;
}

/** Thrown by run() when the caller's AbortSignal fires: there is no decision to report. */
export class ChainCancelledError extends Error {
  override name = 'ChainCancelledError';
  constructor(readonly reason?: unknown) {
    super('The chain run was cancelled by its caller');
  }
}
