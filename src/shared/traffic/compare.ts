// Comparing two executions (a replay against its original, or any two): did the outcome change, did the
// payloads change, which interceptor steps differ. Shared by the bulk-replay summary in the core and the
// Compare screen, so both call the same thing "changed".
import { canonicalJson } from '../protocol/canonical';
import type { ExecutionOutcome, ExecutionRecord } from '../trace/execution';
import type { ChainTrace, TraceStep } from '../trace/types';

export type Comparable = Pick<
  ExecutionRecord,
  'outcome' | 'blockedBy' | 'requestForwarded' | 'responseReturned' | 'errorReturned' | 'requestTrace' | 'responseTrace'
>;

export interface StepComparison {
  phase: 'request' | 'response';
  /** `server/name` */
  id: string;
  a?: StepSummary;
  b?: StepSummary;
  changed: boolean;
}

export interface StepSummary {
  outcome: TraceStep['outcome'];
  skipped?: string;
  shadow: boolean;
  /** Validation messages / error message, joined: a changed verdict reason counts as a difference. */
  detail?: string;
  /** Canonical JSON of what a mutation produced (only for mutations that ran). */
  payload?: string;
}

export interface ExecutionComparison {
  outcomeChanged: boolean;
  /** Blocked by another interceptor or in another phase (or only one of them blocked). */
  blockerChanged: boolean;
  /** The request as forwarded to the backend differs. */
  requestChanged: boolean;
  /** What the client got back (result or error) differs. */
  responseChanged: boolean;
  steps: StepComparison[];
}

export function compareExecutions(a: Comparable, b: Comparable): ExecutionComparison {
  return {
    outcomeChanged: a.outcome !== b.outcome,
    blockerChanged: blocker(a) !== blocker(b),
    requestChanged: same(a.requestForwarded, b.requestForwarded) === false,
    responseChanged: same(answer(a), answer(b)) === false,
    steps: [...compareTraces('request', a.requestTrace, b.requestTrace), ...compareTraces('response', a.responseTrace, b.responseTrace)],
  };
}

function blocker(e: Comparable): string {
  return e.blockedBy ? `${e.blockedBy.server}/${e.blockedBy.interceptor}/${e.blockedBy.phase}` : '';
}

function answer(e: Comparable): unknown {
  return e.errorReturned ? { error: e.errorReturned } : e.responseReturned;
}

function same(x: unknown, y: unknown): boolean {
  if (x === undefined || y === undefined) return x === y;
  return canonicalJson(x) === canonicalJson(y);
}

/**
 * The steps of one phase, paired by interceptor id. A step counts as changed when its content differs
 * (outcome, skip reason, verdict messages / error, the payload a mutation produced) or when the
 * interceptor ran in one chain and is not in the other's. A phase that did not run on one side (the
 * request was blocked, so there was no response phase) is not a step difference: the outcome change
 * already says so, and counting each of that phase's steps turned "2 steps differ" into 9. Its steps
 * are still listed (for "show all"), unchanged.
 */
function compareTraces(phase: 'request' | 'response', a: ChainTrace | undefined, b: ChainTrace | undefined): StepComparison[] {
  const left = new Map((a?.steps ?? []).map((s) => [s.id, summarize(s)]));
  const right = new Map((b?.steps ?? []).map((s) => [s.id, summarize(s)]));
  const ids = [...new Set([...left.keys(), ...right.keys()])];
  const bothRan = a !== undefined && b !== undefined;
  return ids.map((id) => {
    const x = left.get(id);
    const y = right.get(id);
    return {
      phase,
      id,
      ...(x ? { a: x } : {}),
      ...(y ? { b: y } : {}),
      changed: bothRan && (!x || !y || !sameSummary(x, y)),
    };
  });
}

function sameSummary(x: StepSummary, y: StepSummary): boolean {
  return x.outcome === y.outcome && x.skipped === y.skipped && x.detail === y.detail && x.payload === y.payload;
}

/**
 * What of a step is compared. Volatile, never compared: startMs and durationMs (timing differs on every
 * run), and the trace's startedAt/durationMs. Not compared either: input (the payload the step saw: its
 * differences are the request/response diffs), a sink's result metrics, and the step's configuration
 * (priority, timeoutMs, failOpen, mode: a mode change shows as another outcome, e.g. shadow).
 */
function summarize(s: TraceStep): StepSummary {
  const out: StepSummary = { outcome: s.outcome, shadow: s.shadow };
  if (s.skipped) out.skipped = s.skipped;
  const result = s.result as { messages?: { message: string }[]; modified?: boolean; payload?: unknown } | undefined;
  const detail = [...(result?.messages?.map((m) => m.message) ?? []), ...(s.error ? [s.error.message] : [])].join('; ');
  if (detail) out.detail = detail;
  if (s.type === 'mutation' && result?.modified && result.payload !== undefined) out.payload = canonicalJson(result.payload);
  return out;
}

/** How a replay differs from its original, for grouping a bulk replay's results. */
export type ChangeKind = 'outcome' | 'payload' | 'unchanged';

export function changeKind(original: Comparable, replay: Comparable): ChangeKind {
  const c = compareExecutions(original, replay);
  if (c.outcomeChanged) return 'outcome';
  if (c.requestChanged || c.responseChanged) return 'payload';
  return 'unchanged';
}

const OUTCOME_WORDS: Record<ExecutionOutcome, string> = { allow: 'allowed', blocked: 'blocked', mutated: 'mutated', error: 'error' };

export function outcomeWord(o: ExecutionOutcome): string {
  return OUTCOME_WORDS[o];
}
