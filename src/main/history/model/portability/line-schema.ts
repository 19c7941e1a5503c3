// The JSONL export format, one object per line:
//   {"format":"interceptor-console-history","version":1}          first line
//   {"type":"gateway","name":…,"config":…,"createdAt":…,"updatedAt":…}
//   {"type":"session","session":{…SessionRecord}}
//   {"type":"execution","execution":{…ExecutionRecord}}
// Validated with zod on import; unknown fields inside records are kept (the store keeps extras).
// Times must be dates and durations must not be negative: the recorder never writes anything else,
// and a file that does was not written by it (or was edited), so it is refused with the line named.
// A session and an execution must also be what the API hands out (the strict schemas of
// src/shared/api/models-execution.ts): a file the import let through whose detail the API then refused
// (an unknown step outcome, a trace without its validation summary) left an execution nobody could open.
import { z } from 'zod';
import { ExecutionRecordSchema, SessionRecordSchema } from '../../../../shared/api/models-execution';

export const EXPORT_FORMAT = 'interceptor-console-history';
export const EXPORT_VERSION = 1;

export const HeaderLineSchema = z.object({ format: z.literal(EXPORT_FORMAT), version: z.literal(EXPORT_VERSION) });

/** A date and time as the recorder writes it (ISO 8601); anything Date.parse cannot read is refused. */
const Iso = z
  .string()
  .min(1)
  .refine((s) => !Number.isNaN(Date.parse(s)), {
    error: (issue) => `must be a date and time (ISO 8601, e.g. 2025-01-31T12:00:00.000Z), got ${JSON.stringify(issue.input)}`,
  });

/** Milliseconds: a finite number, not negative. */
const Duration = z
  .number({ error: 'must be a number of milliseconds' })
  .finite()
  .min(0, { error: (issue) => `must not be negative, got ${String(issue.input)}` });

/**
 * After the import's own checks (whose messages say what a date or a duration must be), the record must
 * parse as the API's strict schema; its first issue is reported at its path. Validation only: the import
 * stores the line's own object (parse-export-lines.ts).
 */
function alsoMatches(strict: z.ZodType) {
  return (value: unknown, ctx: z.RefinementCtx) => {
    const parsed = strict.safeParse(value);
    const issue = parsed.success ? undefined : parsed.error.issues[0];
    if (issue) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path, input: value });
  };
}

export const GatewayLineSchema = z.object({
  type: z.literal('gateway'),
  name: z.string().min(1),
  config: z.unknown().optional(),
  createdAt: Iso,
  updatedAt: Iso,
});

export const SessionLineSchema = z.object({
  type: z.literal('session'),
  session: z
    .looseObject({
      id: z.string().min(1),
      gateway: z.string().min(1),
      startedAt: Iso,
      clientInfo: z.looseObject({ name: z.string() }).optional(),
      principal: z.looseObject({ type: z.enum(['user', 'service', 'anonymous']) }).optional(),
      protocolVersion: z.string().optional(),
      transport: z.enum(['stdio', 'http']).optional(),
    })
    .superRefine(alsoMatches(SessionRecordSchema)),
});

const StepSchema = z.looseObject({
  id: z.string().optional(),
  server: z.string(),
  name: z.string(),
  type: z.string(),
  pass: z.string(),
  mode: z.string(),
  failOpen: z.boolean(),
  priority: z.number(),
  timeoutMs: Duration.optional(),
  skipped: z.string().optional(),
  skipDetail: z.string().optional(),
  result: z.looseObject({}).optional(),
  error: z.looseObject({ kind: z.string(), message: z.string() }).optional(),
  startMs: z.number().finite(),
  durationMs: Duration,
  outcome: z.string(),
  shadow: z.boolean(),
  simulated: z.boolean().optional(),
});

const TraceSchema = z.looseObject({
  event: z.string(),
  phase: z.enum(['request', 'response']),
  startedAt: Iso,
  durationMs: Duration,
  decision: z.enum(['allow', 'block']),
  status: z.string(),
  steps: z.array(StepSchema),
});

export const ExecutionLineSchema = z.object({
  type: z.literal('execution'),
  execution: z
    .looseObject({
      id: z.string().min(1),
      gateway: z.string().min(1),
      sessionId: z.string().optional(),
      jsonrpcId: z.union([z.string(), z.number(), z.null()]).optional(),
      event: z.string().min(1),
      target: z.string().optional(),
      startedAt: Iso,
      durationMs: Duration,
      errorReturned: z.looseObject({ code: z.number(), message: z.string() }).optional(),
      outcome: z.enum(['allow', 'blocked', 'mutated', 'error']),
      blockedBy: z.looseObject({ server: z.string(), interceptor: z.string(), phase: z.enum(['request', 'response']) }).optional(),
      requestTrace: TraceSchema.optional(),
      responseTrace: TraceSchema.optional(),
      simulated: z.boolean().optional(),
      replayOf: z.string().optional(),
      replayMode: z.enum(['backend', 'chain-only']).optional(),
    })
    .superRefine(alsoMatches(ExecutionRecordSchema)),
});

export const DataLineSchema = z.discriminatedUnion('type', [GatewayLineSchema, SessionLineSchema, ExecutionLineSchema]);
export type DataLine = z.infer<typeof DataLineSchema>;
