// Procedures of the Messages view (every JSON-RPC message of a gateway, on every side). Spread into
// `procedures` there, so there is still one contract.
import { z } from 'zod';
import { MessageDetailSchema, MessageFilterSchema, MessagePageSchema, MessageSessionSchema } from './models-messages';

function proc<I extends z.ZodType, O extends z.ZodType>(input: I, output: O, summary: string) {
  return { input, output, summary };
}

const Gateway = z.object({ gateway: z.string().min(1).max(200) });

export const messagesProcedures = {
  'messages.sessions': proc(
    Gateway.extend({ healthPings: z.boolean().optional() }),
    z.array(MessageSessionSchema),
    "A gateway's sessions that have recorded messages, most recently active first; the gateway's own traffic (sessionId null) is dated without its health pings, and left out when it has nothing else, unless healthPings: true.",
  ),
  'messages.query': proc(
    z.object({ filter: MessageFilterSchema, cursor: z.string().max(40).optional(), limit: z.number().int().min(1).max(1000).default(200) }),
    MessagePageSchema,
    "Recorded messages, newest first, filtered (session, side, direction, kind, method or methods left out, text, execution; the gateway's health pings only with healthPings: true), keyset-paginated.",
  ),
  'messages.detail': proc(z.object({ id: z.string().min(1).max(100) }), MessageDetailSchema, 'One recorded message with its whole text.'),
  'messages.methods': proc(Gateway, z.array(z.string()), 'Every method recorded for a gateway (the method filter suggests them).'),
} as const;
