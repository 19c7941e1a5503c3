// The chain trace: a complete, serializable account of one chain run. The engine produces it,
// the store persists it, and every screen (Traffic, Playground dry-run, Chain) renders it.
import type { Phase } from '../protocol/constants';
import type { InterceptorResult, InterceptorType, Mode } from '../protocol/schemas';

/** Which pass of the execution model a step belongs to (A2). */
export type Pass = 'mutation' | 'validation' | 'sink';

export type SkipReason =
  | 'event-not-hooked' // no hook of this interceptor covers the event
  | 'other-phase' // hooked for the event, but only in the other phase
  | 'disabled' // override enabled:false
  | 'compat' // compat range excludes the negotiated protocol version (A17)
  | 'config-invalid' // no config is set and its configSchema requires one: a configuration error
  | 'discovery-failed' // its server failed discovery and is fail-open (A8)
  | 'after-block' // an earlier block stopped the chain before it ran (S4 gating)
  | 'chain-timeout' // the whole-chain deadline passed before it was invoked
  | 'validation-failed'; // sinks: validations blocked, so sinks do not run

export type StepOutcome =
  | 'allowed' // validation passed (or warn/info)
  | 'warned' // valid:false with warn/info severity
  | 'blocked' // this step blocked the chain
  | 'mutated' // active mutation applied
  | 'unchanged' // mutation returned modified:false
  | 'shadow' // audit mode: computed, not applied / not blocking
  | 'failed-open' // invocation failed, routed as continue (failOpen or audit)
  | 'recorded' // sink recorded:true
  | 'not-recorded' // sink recorded:false (including its failures)
  | 'skipped';

export type StepErrorKind = 'timeout' | 'crash' | 'transport' | 'malformed' | 'rpc' | 'cancelled' | 'discovery' | 'simulated';

export interface StepError {
  kind: StepErrorKind;
  message: string;
  code?: number;
  data?: unknown;
}

export interface TraceStep {
  /** `server/name`: the identity of an interceptor (A7). */
  id: string;
  server: string;
  name: string;
  type: InterceptorType;
  pass: Pass;
  mode: Mode;
  failOpen: boolean;
  /** Effective priority for this phase (mutations are ordered by it). */
  priority: number;
  timeoutMs?: number;
  skipped?: SkipReason;
  /** Human explanation, e.g. the compat range or the discovery error. */
  skipDetail?: string;
  /** The payload this interceptor saw. */
  input?: unknown;
  result?: InterceptorResult;
  error?: StepError;
  /** ms from chain start. */
  startMs: number;
  durationMs: number;
  outcome: StepOutcome;
  /** True for audit-mode steps: their effects are shadowed (never applied, never blocking). */
  shadow: boolean;
  /** True when the failure was forced by failure simulation. */
  simulated?: boolean;
}

export type ChainStatus = 'success' | 'validation_failed' | 'mutation_failed' | 'timeout' | 'discovery_failed';

export interface BlockInfo {
  server: string;
  interceptor: string;
  phase: Phase;
  event: string;
  /** One sentence: why it blocked. */
  reason: string;
  messages: string[];
}

export interface DiscoveryRecord {
  server: string;
  ok: boolean;
  failOpen: boolean;
  error?: string;
  durationMs: number;
  interceptorCount: number;
  /** Descriptors the server returned that were malformed, with why (never a crash). */
  skippedDescriptors: { name?: string; reason: string }[];
}

export interface ChainTrace {
  event: string;
  phase: Phase;
  /** ISO 8601 start time. */
  startedAt: string;
  durationMs: number;
  decision: 'allow' | 'block';
  status: ChainStatus;
  blockedBy?: BlockInfo;
  /**
   * Optional because a payload that was absent (a request without params) leaves no key once the trace is
   * stored as JSON and read back: a trace from history may lack them.
   */
  inputPayload?: unknown;
  finalPayload?: unknown;
  /** True iff an active mutation changed the payload and the change was kept. */
  modified: boolean;
  timeoutMs?: number;
  /**
   * The whole-chain deadline passed during the run. With status 'timeout' it caused the block;
   * with status 'success' every interceptor it cut off was audit or fail-open.
   */
  deadlineExceeded?: boolean;
  discovery: DiscoveryRecord[];
  steps: TraceStep[];
  validationSummary: { errors: number; warnings: number; infos: number };
}
