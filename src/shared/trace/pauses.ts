// Pauses at breakpoints: what a live paused call looks like (the console's Paused list and detail, the
// control endpoint, the terminal prompt), the decisions one can take, and what the execution's trace keeps
// of each pause (who decided what, when, and the edit's before/after).
import { z } from 'zod';
import type { PausePoint } from '../config/breakpoints';
import { MAX_PAYLOAD_DEPTH, nestedDeeperThan, tooDeepMessage } from '../protocol/payload-depth';
import type { ChainTrace } from './types';

export const PAUSE_DECISIONS = ['continue', 'edit', 'block', 'answer', 'step'] as const;
export type PauseDecisionKind = (typeof PAUSE_DECISIONS)[number];

/**
 * An edit or a mock becomes what the call carries on with: it gets the limit a client's params get
 * (payload-depth.ts), or the chain, the backend send and the recorder fail on it after the pause is gone.
 */
const notTooDeep = (what: string) => ({ check: (v: unknown) => !nestedDeeperThan(v, MAX_PAYLOAD_DEPTH), error: tooDeepMessage(what) });
const editDepth = notTooDeep('The edited payload is');
const answerDepth = notTooDeep('The result is');

export const PauseDecisionSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('continue') }),
    /** The payload at this point replaced (request params, or the result on the response side). */
    z.strictObject({
      kind: z.literal('edit'),
      payload: z.record(z.string(), z.unknown(), { error: 'expected a JSON object (the edited payload)' }).refine(editDepth.check, { error: editDepth.error }),
    }),
    z.strictObject({ kind: z.literal('block'), message: z.string().trim().min(1, { error: 'say why it is blocked (the client reads it)' }).max(4000) }),
    /** A result of one's own, returned to the client without (or instead of) the backend's. */
    z.strictObject({
      kind: z.literal('answer'),
      result: z.record(z.string(), z.unknown(), { error: 'expected a JSON object (the result)' }).refine(answerDepth.check, { error: answerDepth.error }),
    }),
    z.strictObject({ kind: z.literal('step') }),
  ],
  { error: `expected {kind} with kind one of ${PAUSE_DECISIONS.join(', ')}` },
);
export type PauseDecision = z.infer<typeof PauseDecisionSchema>;

/** One interceptor run while stepping: what it saw and what it answered. */
export interface SteppedInterceptor {
  id: string;
  input: unknown;
  result?: unknown;
  error?: string;
  durationMs: number;
}

/** A call paused right now (live; gone once decided). */
export interface PausedCall {
  id: string;
  gateway: string;
  sessionId: string;
  /** The execution this pause belongs to (its id in Traffic once recorded). */
  executionId: string;
  method: string;
  target?: string;
  principal?: string;
  at: PausePoint;
  /** The breakpoint's label, or "step" when a step brought the call here. */
  breakpoint: string;
  /** before-interceptor pauses: the interceptor about to run (`server/name`). */
  interceptor?: string;
  /** The payload at this point: request params, or the result on the response side. */
  payload: unknown;
  /** Chain traces of the phases run so far (the request trace at a response point, ...). */
  requestTrace?: ChainTrace;
  responseTrace?: ChainTrace;
  /** While stepping: the interceptors of this phase that ran so far, with their results. */
  stepped?: SteppedInterceptor[];
  pausedAt: string;
  /** When the pause resolves by itself, and how. */
  deadline: string;
  timeoutMs: number;
  onTimeout: 'continue' | 'block';
  /** Decisions that make sense here (answer is not offered before an interceptor, step not at the last point). */
  allowed: PauseDecisionKind[];
}

/** What the execution's trace keeps of one pause. */
export interface PauseRecord {
  id: string;
  at: PausePoint;
  breakpoint: string;
  interceptor?: string;
  pausedAt: string;
  resolvedAt: string;
  waitedMs: number;
  /** 'cancelled': the client cancelled or went away while paused. */
  decision: PauseDecisionKind | 'cancelled';
  /** Who decided: "you" (the console), "terminal", "timeout", or the name a controller gave. */
  by: string;
  timedOut?: boolean;
  /** block: the message the client got. */
  message?: string;
  /** edit: the payload before and after (the diff); answer: `after` is the mock result. */
  before?: unknown;
  after?: unknown;
}

export const PAUSE_ACTOR_YOU = 'you';
