// Shapes of the Messages view that cross the API boundary: a gateway's sessions with messages, a page of
// messages (newest first), one message with its whole text, the filter.
import { z } from 'zod';

export const MessageSideSchema = z.enum(['client', 'backend', 'interceptor']);
export const MessageDirectionSchema = z.enum(['in', 'out']);
export const MessageKindSchema = z.enum(['request', 'response', 'error', 'notification', 'connect-error']);

export const MessageFilterSchema = z.object({
  gateway: z.string().min(1).max(200),
  /** A session id; null: the gateway's own messages outside any session; absent: every session. */
  session: z.string().min(1).max(200).nullable().optional(),
  side: MessageSideSchema.optional(),
  direction: MessageDirectionSchema.optional(),
  kind: MessageKindSchema.optional(),
  method: z.string().min(1).max(200).optional(),
  /** Methods left out (the method filter's `-ping`). */
  excludeMethods: z.array(z.string().min(1).max(200)).max(50).optional(),
  /** Show the gateway's own health pings to its servers; absent or false: they are left out (in the store query). */
  healthPings: z.boolean().optional(),
  search: z.string().max(500).optional(),
  executionId: z.string().min(1).max(100).optional(),
});
export type MessageFilter = z.infer<typeof MessageFilterSchema>;

export const MessageRowSchema = z.object({
  id: z.string(),
  key: z.string(),
  at: z.string(),
  sessionId: z.string().optional(),
  side: MessageSideSchema,
  direction: MessageDirectionSchema,
  peer: z.string().optional(),
  kind: MessageKindSchema,
  method: z.string().optional(),
  jsonrpcId: z.union([z.string(), z.number()]).optional(),
  size: z.number().int(),
  truncated: z.boolean(),
  executionId: z.string().optional(),
  preview: z.string(),
});
export type MessageRow = z.infer<typeof MessageRowSchema>;

export const MessageDetailSchema = MessageRowSchema.extend({ gateway: z.string(), body: z.string() });
export type MessageDetail = z.infer<typeof MessageDetailSchema>;

export const MessagePageSchema = z.object({ items: z.array(MessageRowSchema), nextCursor: z.string().nullable() });

export const MessageSessionSchema = z.object({
  sessionId: z.string().nullable(),
  lastAt: z.string(),
  startedAt: z.string().optional(),
  clientName: z.string().optional(),
  transport: z.string().optional(),
  principal: z.string().optional(),
});
export type MessageSession = z.infer<typeof MessageSessionSchema>;
