// Procedures of the Traffic and Sinks screens that `procedures.ts` does not already declare: lazy counts,
// filter facets and bulk replay jobs. Spread into `procedures` there, so there is still one contract.
import { z } from 'zod';
import { HistoryFilterSchema } from './models';
import { BulkJobSchema, BulkPlanSchema, CountSchema, FacetsSchema, ReplayModeSchema } from './models-traffic';

function proc<I extends z.ZodType, O extends z.ZodType>(input: I, output: O, summary: string) {
  return { input, output, summary };
}

const JobId = z.object({ jobId: z.string().min(1).max(100) });

export const trafficProcedures = {
  'history.count': proc(
    z.object({ filter: HistoryFilterSchema.default({}), cap: z.number().int().min(1).max(10_000_000).default(100_000) }),
    CountSchema,
    'How many executions match a filter, counting at most `cap` (asked after the first page, never before it).',
  ),
  'history.facets': proc(z.object({}).optional(), FacetsSchema, 'Values for the filter chips: gateways, methods, targets and interceptors seen.'),

  'replay.bulkStart': proc(
    z.object({
      filter: HistoryFilterSchema.default({}),
      mode: ReplayModeSchema.default('backend'),
      /** The newest `max` matching executions are replayed (replays themselves are skipped). */
      max: z.number().int().min(1).max(5000).default(500),
    }),
    BulkJobSchema,
    'Starts replaying the filtered executions as a background job; progress arrives as replay.progress events.',
  ),
  'replay.bulkPlan': proc(
    z.object({ filter: HistoryFilterSchema.default({}), max: z.number().int().min(1).max(5000).default(500) }),
    BulkPlanSchema,
    'How many executions a bulk replay of this filter would replay, and how many matching replays it skips.',
  ),
  'replay.bulkStatus': proc(JobId, BulkJobSchema, 'The state and summary of a bulk replay job.'),
  'replay.bulkCancel': proc(JobId, BulkJobSchema, 'Cancels a bulk replay job; what was replayed so far stays recorded and summarized.'),
} as const;
