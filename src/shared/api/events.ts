// Events the core pushes to every connected window / browser tab.
import { z } from 'zod';
import { GatewayIdSchema, GatewayStatusSchema } from './models';

/** Store tables a screen may read; "tables changed" names them so only affected queries refetch. */
// 'pauses' is no store table: the calls paused at breakpoints right now (pushed as pauses.changed).
export const TableNameSchema = z.enum(['gateways', 'sessions', 'executions', 'steps', 'sink_events', 'replays', 'settings', 'messages', 'pauses']);
export type TableName = z.infer<typeof TableNameSchema>;

export const ApiEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('gateway.status'), id: GatewayIdSchema, status: GatewayStatusSchema, error: z.string().optional() }),
  z.object({ type: z.literal('executions.new'), gateway: z.string(), count: z.number().int().positive() }),
  /** Captured messages of a gateway are readable (the Messages view tops up its list). */
  z.object({ type: z.literal('messages.new'), gateway: z.string(), count: z.number().int().positive() }),
  z.object({ type: z.literal('tables.changed'), tables: z.array(TableNameSchema).min(1) }),
  /** A running gateway swapped its config (the Chain screen's Save); `restarted` when it could not hot-reload. */
  z.object({ type: z.literal('gateway.reloaded'), id: GatewayIdSchema, at: z.string(), restarted: z.boolean() }),
  /** The built-in client's pending server→client requests of a session changed (fetch client.pending). */
  z.object({ type: z.literal('client.requests'), sessionId: z.string(), pending: z.number().int().nonnegative() }),
  /** The built-in client's connects waiting for the user to authorize them in a browser changed (fetch client.authorizations). */
  z.object({ type: z.literal('client.authorizations'), waiting: z.number().int().nonnegative() }),
  /** A call paused at a breakpoint (`opened`) or its pause resolved (`resolved`): refetch breakpoints.paused. */
  z.object({
    type: z.literal('pauses.changed'),
    gateway: z.string(),
    opened: z.object({ id: z.string(), method: z.string(), target: z.string().optional(), at: z.string() }).optional(),
    resolved: z.object({ id: z.string(), decision: z.string(), by: z.string() }).optional(),
  }),
  /** Progress of a bulk replay job (throttled); fetch replay.bulkStatus for its summary. */
  z.object({
    type: z.literal('replay.progress'),
    jobId: z.string(),
    state: z.enum(['running', 'done', 'cancelled', 'failed']),
    done: z.number().int(),
    total: z.number().int(),
  }),
]);
export type ApiEvent = z.infer<typeof ApiEventSchema>;
