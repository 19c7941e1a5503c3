// The chain trace as it crosses the API (a dry run, an execution's detail, a replay): one schema per type
// of src/shared/trace/types.ts, each proved by `exact` to be that type, so a field added to the type and
// forgotten here fails to compile instead of vanishing from the screens.
import { z } from 'zod';
import { InterceptorResultSchema, InterceptorTypeSchema, PhaseSchema } from '../protocol/schemas';
import type { BlockInfo, ChainTrace, DiscoveryRecord, StepError, TraceStep } from '../trace/types';
import { exact } from './exact';

export const StepErrorSchema = exact<StepError>()(
  z.object({
    kind: z.enum(['timeout', 'crash', 'transport', 'malformed', 'rpc', 'cancelled', 'discovery', 'simulated']),
    message: z.string(),
    code: z.number().optional(),
    data: z.unknown().optional(),
  }),
);

export const TraceStepSchema = exact<TraceStep>()(
  z.object({
    id: z.string(),
    server: z.string(),
    name: z.string(),
    type: InterceptorTypeSchema,
    pass: z.enum(['mutation', 'validation', 'sink']),
    // Not the protocol's ModeSchema: that one also reads the legacy `enforce` on input; a trace holds only these.
    mode: z.enum(['active', 'audit']),
    failOpen: z.boolean(),
    priority: z.number(),
    timeoutMs: z.number().optional(),
    skipped: z
      .enum([
        'event-not-hooked',
        'other-phase',
        'disabled',
        'compat',
        'config-invalid',
        'discovery-failed',
        'after-block',
        'chain-timeout',
        'validation-failed',
      ])
      .optional(),
    skipDetail: z.string().optional(),
    input: z.unknown().optional(),
    // The protocol's own result schema, open (loose) as the protocol is: an interceptor server may add
    // fields to its result, and the trace shows the result as the server sent it.
    result: InterceptorResultSchema.optional(),
    error: StepErrorSchema.optional(),
    startMs: z.number(),
    durationMs: z.number(),
    outcome: z.enum(['allowed', 'warned', 'blocked', 'mutated', 'unchanged', 'shadow', 'failed-open', 'recorded', 'not-recorded', 'skipped']),
    shadow: z.boolean(),
    simulated: z.boolean().optional(),
  }),
);

export const BlockInfoSchema = exact<BlockInfo>()(
  z.object({
    server: z.string(),
    interceptor: z.string(),
    phase: PhaseSchema,
    event: z.string(),
    reason: z.string(),
    messages: z.array(z.string()),
  }),
);

export const DiscoveryRecordSchema = exact<DiscoveryRecord>()(
  z.object({
    server: z.string(),
    ok: z.boolean(),
    failOpen: z.boolean(),
    error: z.string().optional(),
    durationMs: z.number(),
    interceptorCount: z.number(),
    skippedDescriptors: z.array(z.object({ name: z.string().optional(), reason: z.string() })),
  }),
);

export const ChainTraceSchema = exact<ChainTrace>()(
  z.object({
    event: z.string(),
    phase: PhaseSchema,
    startedAt: z.string(),
    durationMs: z.number(),
    decision: z.enum(['allow', 'block']),
    status: z.enum(['success', 'validation_failed', 'mutation_failed', 'timeout', 'discovery_failed']),
    blockedBy: BlockInfoSchema.optional(),
    inputPayload: z.unknown().optional(),
    finalPayload: z.unknown().optional(),
    modified: z.boolean(),
    timeoutMs: z.number().optional(),
    deadlineExceeded: z.boolean().optional(),
    discovery: z.array(DiscoveryRecordSchema),
    steps: z.array(TraceStepSchema),
    validationSummary: z.object({ errors: z.number(), warnings: z.number(), infos: z.number() }),
  }),
);
