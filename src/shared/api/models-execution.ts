// Recorded executions as they cross the API: the record (src/shared/trace/execution.ts) with its session
// and pauses, proved equal to those types by `exact`; and the read models of history, defined here once
// and used by main (the engines, the services) and the renderer alike: a Traffic row, a page of them, and
// an execution's detail (history.detail, replay.run).
import { z } from 'zod';
import type { ExecutionRecord, SessionRecord } from '../trace/execution';
import type { PauseRecord } from '../trace/pauses';
import { BREAK_POINTS } from '../config/breakpoints';
import { PAUSE_DECISIONS } from '../trace/pauses';
import { exact } from './exact';
import { OutcomeSchema } from './models';
import { SinkEventSchema } from './models-traffic';
import { BlockInfoSchema, ChainTraceSchema } from './models-trace';

export const SessionRecordSchema = exact<SessionRecord>()(
  z.object({
    id: z.string(),
    gateway: z.string(),
    startedAt: z.string(),
    // Loose: MCP's Implementation is open (title, icons, websiteUrl, and whatever a later revision adds), and
    // the session keeps what the client sent.
    clientInfo: z.looseObject({ name: z.string(), version: z.string().optional() }).optional(),
    principal: z.object({ type: z.enum(['user', 'service', 'anonymous']), id: z.string().optional() }).optional(),
    protocolVersion: z.string().optional(),
    transport: z.enum(['stdio', 'http']).optional(),
  }),
);

export const PauseRecordSchema = exact<PauseRecord>()(
  z.object({
    id: z.string(),
    at: z.enum([...BREAK_POINTS, 'before-interceptor']),
    breakpoint: z.string(),
    interceptor: z.string().optional(),
    pausedAt: z.string(),
    resolvedAt: z.string(),
    waitedMs: z.number(),
    decision: z.enum([...PAUSE_DECISIONS, 'cancelled']),
    by: z.string(),
    timedOut: z.boolean().optional(),
    message: z.string().optional(),
    before: z.unknown().optional(),
    after: z.unknown().optional(),
  }),
);

export const ExecutionRecordSchema = exact<ExecutionRecord>()(
  z.object({
    id: z.string(),
    gateway: z.string(),
    sessionId: z.string().optional(),
    jsonrpcId: z.union([z.string(), z.number()]).optional(),
    event: z.string(),
    target: z.string().optional(),
    startedAt: z.string(),
    durationMs: z.number(),
    requestReceived: z.unknown().optional(),
    requestForwarded: z.unknown().optional(),
    responseReceived: z.unknown().optional(),
    responseReturned: z.unknown().optional(),
    errorReturned: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
    outcome: OutcomeSchema,
    blockedBy: BlockInfoSchema.optional(),
    requestTrace: ChainTraceSchema.optional(),
    responseTrace: ChainTraceSchema.optional(),
    pauses: z.array(PauseRecordSchema).optional(),
    simulated: z.boolean().optional(),
    replayOf: z.string().optional(),
    replayMode: z.enum(['backend', 'chain-only']).optional(),
  }),
);

/** One execution in full: the record with its sink events, the replays made of it and its session. */
export const ExecutionDetailSchema = ExecutionRecordSchema.extend({
  sinkEvents: z.array(SinkEventSchema),
  /** Ids of executions that replayed this one, oldest first. */
  replayedBy: z.array(z.string()),
  session: SessionRecordSchema.optional(),
  /** The host whose gateway recorded it (shared PostgreSQL histories). */
  host: z.string().optional(),
});
export type ExecutionDetail = z.infer<typeof ExecutionDetailSchema>;

/** An execution as a history engine lists it (a Traffic page's row, before the service adds its badges). */
export const ExecutionSummarySchema = z.object({
  id: z.string(),
  gateway: z.string(),
  /** The host whose gateway recorded it (a shared PostgreSQL history records it; SQLite does not). */
  host: z.string().optional(),
  sessionId: z.string().optional(),
  event: z.string(),
  target: z.string().optional(),
  startedAt: z.string(),
  durationMs: z.number(),
  outcome: OutcomeSchema,
  /** The interceptor that blocked it (server, name and phase). */
  blockedBy: z.object({ server: z.string(), interceptor: z.string(), phase: z.string().optional() }).optional(),
  errorCode: z.number().optional(),
  simulated: z.boolean().optional(),
  replayOf: z.string().optional(),
});
export type ExecutionSummary = z.infer<typeof ExecutionSummarySchema>;

/** One row of the Traffic table (what `history.query` returns per execution): the summary with its badges. */
export const TrafficRowSchema = ExecutionSummarySchema.extend({
  /** Some audit-mode (shadow) interceptor ran in it. */
  shadow: z.boolean().optional(),
  /** A tools/call whose result says `isError: true`: shown beside the outcome, which it does not change. */
  toolError: z.boolean().optional(),
});
export type TrafficRow = z.infer<typeof TrafficRowSchema>;

export const ExecutionPageSchema = z.object({
  items: z.array(TrafficRowSchema),
  nextCursor: z.string().nullable(),
  total: z.number().int().optional(),
});
