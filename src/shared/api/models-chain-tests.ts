// The Tests screen's models ([chain-tests]): a gateway's chain test cases and a run of them. One schema
// each, shared by the main process (its handlers' output is checked against them) and the renderer.
import { z } from 'zod';

export const CaseSummarySchema = z.object({
  file: z.string(),
  /** The case's name, or the file's name when the file is not a usable case. */
  name: z.string(),
  method: z.string().optional(),
  outcome: z.enum(['allowed', 'blocked', 'mutated', 'error']).optional(),
  /** Set when the file is not a usable case (not JSON, not a case): said per file, the rest still list. */
  error: z.string().optional(),
  recordedFrom: z.string().optional(),
});
export type CaseSummary = z.infer<typeof CaseSummarySchema>;

export const CaseListSchema = z.object({ dir: z.string(), cases: z.array(CaseSummarySchema) });

const DifferenceSchema = z.object({
  path: z.string(),
  expected: z.unknown().optional(),
  actual: z.unknown().optional(),
  kind: z.enum(['changed', 'missing', 'unexpected']),
});

const DecisionSchema = z.object({ interceptor: z.string(), phase: z.enum(['request', 'response']), outcome: z.enum(['blocked', 'mutated']) });

export const CaseRunSchema = z.object({
  name: z.string(),
  file: z.string(),
  status: z.enum(['passed', 'failed', 'error']),
  error: z.string().optional(),
  failures: z.array(
    z.object({
      what: z.enum(['outcome', 'decidedBy', 'forwarded', 'returned', 'error']),
      message: z.string(),
      differences: z.array(DifferenceSchema).optional(),
    }),
  ),
  steps: z.array(z.object({ interceptor: z.string(), phase: z.enum(['request', 'response']), before: z.string().optional(), after: z.string().optional() })),
  skipped: z.array(z.object({ interceptor: z.string(), phase: z.enum(['request', 'response']), reason: z.string(), detail: z.string().optional() })).optional(),
  actual: z
    .object({
      outcome: z.string(),
      decidedBy: z.array(DecisionSchema),
      forwarded: z.unknown().optional(),
      returned: z.unknown().optional(),
      error: z.object({ code: z.number(), message: z.string() }).optional(),
    })
    .optional(),
  durationMs: z.number(),
});
export type CaseRunView = z.infer<typeof CaseRunSchema>;

export const SuiteRunSchema = z.object({
  gateway: z.string(),
  cases: z.array(CaseRunSchema),
  passed: z.number().int(),
  failed: z.number().int(),
  errors: z.number().int(),
  durationMs: z.number(),
  /** True when the run used an unsaved draft of the chain rather than the saved config. */
  draft: z.boolean(),
  /** True when the requests went to the gateway's real backend rather than the recorded answers. */
  live: z.boolean(),
});
export type SuiteRunView = z.infer<typeof SuiteRunSchema>;

export const SavedCasesSchema = z.object({
  dir: z.string(),
  saved: z.array(z.object({ file: z.string(), name: z.string(), executionId: z.string() })),
  /** Executions that could not become a case (not found, a replay of a server-to-client request...). */
  errors: z.array(z.object({ executionId: z.string(), error: z.string() })),
});
