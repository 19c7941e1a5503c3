// zod schemas for the SEP-2624 wire protocol. Input schemas are lenient where part A says so
// (legacy `enforce`, legacy `*/request` events); output goes through `wire.ts` so that it is
// exactly the wire shape, with defaults and nulls omitted.
import { z } from 'zod';

export const PhaseSchema = z.enum(['request', 'response']);
export const InterceptorTypeSchema = z.enum(['validation', 'mutation', 'sink']);
export type InterceptorType = z.infer<typeof InterceptorTypeSchema>;

/** A5: `enforce` is read as `active`, never emitted. */
export const ModeSchema = z.preprocess((v) => (v === 'enforce' ? 'active' : v), z.enum(['active', 'audit']));
export type Mode = 'active' | 'audit';

export const SeveritySchema = z.enum(['info', 'warn', 'error']);
export type Severity = z.infer<typeof SeveritySchema>;

export const HookSchema = z.object({
  events: z.array(z.string().min(1)),
  phase: PhaseSchema,
});
export type Hook = z.infer<typeof HookSchema>;

// The SEP says int32, but the TS reference emits whatever number its author wrote (0.5, 1e3): be liberal
// and order by the number; only non-finite values are refused.
export const PriorityHintSchema = z.union([z.number(), z.object({ request: z.number().optional(), response: z.number().optional() })]);
export type PriorityHint = z.infer<typeof PriorityHintSchema>;

export const CompatSchema = z.object({ minProtocol: z.string(), maxProtocol: z.string().optional() });
export type Compat = z.infer<typeof CompatSchema>;

/** JSON Schema of an interceptor's `config` as our host's authors write it: the root is an object schema. */
export const ConfigSchemaSchema = z.looseObject({ type: z.literal('object') });
export type ConfigSchema = z.infer<typeof ConfigSchemaSchema>;

/**
 * A descriptor's `configSchema` as other hosts send it: any JSON value is accepted (the TS reference may send
 * a schema without `type:"object"`); the invoker validates config only against a usable one (chain/config-check).
 */
export const ForeignConfigSchemaSchema = z.unknown();

const MetaSchema = z.record(z.string(), z.unknown());

export const InterceptorDescriptorSchema = z.looseObject({
  name: z.string().min(1),
  version: z.string().optional(),
  description: z.string().optional(),
  type: InterceptorTypeSchema,
  hooks: z.array(HookSchema),
  mode: ModeSchema.optional(),
  failOpen: z.boolean().optional(),
  priorityHint: PriorityHintSchema.optional(),
  compat: CompatSchema.optional(),
  configSchema: ForeignConfigSchemaSchema.optional(),
  _meta: MetaSchema.optional(),
});
export type InterceptorDescriptor = z.infer<typeof InterceptorDescriptorSchema>;

export const PrincipalSchema = z.looseObject({
  type: z.enum(['user', 'service', 'anonymous']),
  id: z.string().optional(),
  claims: z.record(z.string(), z.unknown()).optional(),
});
export type Principal = z.infer<typeof PrincipalSchema>;

export const InvocationContextSchema = z.looseObject({
  principal: PrincipalSchema.optional(),
  traceId: z.string().optional(),
  spanId: z.string().optional(),
  timestamp: z.string().optional(),
  sessionId: z.string().optional(),
});
export type InvocationContext = z.infer<typeof InvocationContextSchema>;

export const ListParamsSchema = z.looseObject({ event: z.string().optional(), cursor: z.string().optional(), _meta: MetaSchema.optional() }).optional();
export type ListParams = z.infer<typeof ListParamsSchema>;

/** Descriptors stay `unknown` here: the invoker validates each one and skips bad ones with a reason. */
export const ListResultSchema = z.looseObject({
  interceptors: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});
export type ListResult = { interceptors: InterceptorDescriptor[]; nextCursor?: string };

export const InvokeParamsSchema = z.looseObject({
  name: z.string().min(1),
  event: z.string().min(1),
  phase: PhaseSchema,
  payload: z.unknown(),
  config: z.record(z.string(), z.unknown()).optional(),
  timeoutMs: z.number().int().nonnegative().optional(),
  context: InvocationContextSchema.optional(),
  _meta: MetaSchema.optional(),
});
export type InvokeParams = z.infer<typeof InvokeParamsSchema>;

export const ValidationMessageSchema = z.looseObject({
  path: z.string().optional(),
  message: z.string(),
  severity: SeveritySchema,
});
export type ValidationMessage = z.infer<typeof ValidationMessageSchema>;

const resultBase = {
  interceptor: z.string(),
  phase: PhaseSchema,
  durationMs: z.number().optional(),
  info: z.record(z.string(), z.unknown()).optional(),
};

export const ValidationResultSchema = z.looseObject({
  ...resultBase,
  type: z.literal('validation'),
  valid: z.boolean(),
  // Unknown severities are kept as strings so that A3 can treat them as `error`.
  severity: z.string().optional(),
  messages: z.array(ValidationMessageSchema).optional(),
  suggestions: z.array(z.looseObject({ path: z.string(), value: z.unknown() })).optional(),
});
export type ValidationResult = z.infer<typeof ValidationResultSchema>;

export const MutationResultSchema = z.looseObject({
  ...resultBase,
  type: z.literal('mutation'),
  modified: z.boolean(),
  // Absent with modified:false means "unchanged" (the TS reference sends that); modified:true needs it.
  payload: z.unknown().optional(),
});
export type MutationResult = z.infer<typeof MutationResultSchema>;

export const SinkResultSchema = z.looseObject({
  ...resultBase,
  type: z.literal('sink'),
  recorded: z.boolean(),
  metrics: z.record(z.string(), z.number()).optional(),
});
export type SinkResult = z.infer<typeof SinkResultSchema>;

export const InterceptorResultSchema = z.discriminatedUnion('type', [ValidationResultSchema, MutationResultSchema, SinkResultSchema]);
export type InterceptorResult = z.infer<typeof InterceptorResultSchema>;

export const CapabilitySchema = z.looseObject({ supportedEvents: z.array(z.string()).optional() });
export type InterceptorCapability = z.infer<typeof CapabilitySchema>;

/** `error.data` of a host-side invoke timeout (A10). */
export const TimeoutErrorDataSchema = z.looseObject({
  interceptor: z.string(),
  timeoutMs: z.number(),
  phase: PhaseSchema.optional(),
  reason: z.string().optional(),
});
