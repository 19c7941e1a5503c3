// Shapes of the Traffic and Sinks screens that cross the API boundary: counts, filter facets, bulk
// replay jobs and their summaries, sink events and their pages.
import { z } from 'zod';
import { OutcomeSchema } from './models';

/** What a bulk replay of a filter would do: how many originals it replays, how many matching replays it skips. */
export const BulkPlanSchema = z.object({
  toReplay: z.number().int(),
  replaysSkipped: z.number().int(),
  /** More originals match than `max`: only the newest `max` are replayed. */
  more: z.boolean(),
});
export type BulkPlan = z.infer<typeof BulkPlanSchema>;

export const CountSchema = z.object({
  count: z.number().int(),
  /** True when counting stopped at the cap: there are at least `count` matches. */
  capped: z.boolean(),
});

export const FacetsSchema = z.object({
  gateways: z.array(z.string()),
  /** Hosts whose gateways recorded into a shared (PostgreSQL) history; empty for an SQLite file, which records none. */
  hosts: z.array(z.string()),
  events: z.array(z.string()),
  /** Tool names, resource uris, prompt names (the most frequent first is not promised; capped). */
  targets: z.array(z.string()),
  /** `server/name` of every interceptor seen in recorded steps. */
  interceptors: z.array(z.string()),
  /** `server/name` of the interceptors that handled sink events (the Sinks screen's filter). */
  sinks: z.array(z.string()),
});
export type Facets = z.infer<typeof FacetsSchema>;

export const ReplayModeSchema = z.enum(['backend', 'chain-only']);
export type ReplayMode = z.infer<typeof ReplayModeSchema>;

export const BulkPairSchema = z.object({
  originalId: z.string(),
  replayId: z.string().optional(),
  /** Why this execution could not be replayed. */
  error: z.string().optional(),
});

export const BulkGroupSchema = z.object({
  /** `outcome:blocked>allow`, `payload:mutated`, `unchanged`, `failed`. */
  key: z.string(),
  kind: z.enum(['outcome', 'payload', 'unchanged', 'failed']),
  /** "blocked → allowed", "payloads changed (mutated)", ... */
  label: z.string(),
  from: OutcomeSchema.optional(),
  to: OutcomeSchema.optional(),
  count: z.number().int(),
  /** The pairs of the group (the first 500), each opens in Compare. */
  pairs: z.array(BulkPairSchema),
});
export type BulkGroup = z.infer<typeof BulkGroupSchema>;

export const BulkJobSchema = z.object({
  jobId: z.string(),
  state: z.enum(['running', 'done', 'cancelled', 'failed']),
  mode: ReplayModeSchema,
  done: z.number().int(),
  total: z.number().int(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  error: z.string().optional(),
  groups: z.array(BulkGroupSchema),
});
export type BulkJob = z.infer<typeof BulkJobSchema>;

/** One recorded sink event (the Sinks screen's row, and an execution's detail), whichever engine answers. */
export const SinkEventSchema = z.object({
  executionId: z.string(),
  gateway: z.string(),
  /** `server/name`, the interceptor's identity. */
  interceptor: z.string(),
  server: z.string(),
  name: z.string(),
  event: z.string(),
  phase: z.string(),
  recorded: z.boolean(),
  metrics: z.record(z.string(), z.number()).optional(),
  error: z.unknown().optional(),
  at: z.string(),
});
export type SinkEvent = z.infer<typeof SinkEventSchema>;

export const SinkEventPageSchema = z.object({ items: z.array(SinkEventSchema), nextCursor: z.string().nullable() });
export type SinkEventPage = z.infer<typeof SinkEventPageSchema>;
