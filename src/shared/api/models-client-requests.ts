// Shapes of the built-in client's server→client side: the requests a server sends it (sampling,
// elicitation) that wait for the user in the Client tab, the user's answers, and the client's roots.
// The core checks every answer against these (and an elicitation's content against the request's own
// requestedSchema) before anything goes back to the server.
import { z } from 'zod';

/** How long a server→client request waits for the user before it is answered with an error. */
export const DEFAULT_ANSWER_TIMEOUT_MS = 5 * 60_000;
export const MAX_ANSWER_TIMEOUT_MS = 60 * 60_000;

/** One root the client offers (MCP roots are file:// URIs). */
export const ClientRootSchema = z.object({
  uri: z
    .string()
    .trim()
    .regex(/^file:\/\/[^\s]*$/, 'a root is a file:// URI, e.g. file:///home/alice/project')
    .refine((u) => URL.canParse(u), 'not a valid file:// URI'),
  name: z.string().trim().max(200).optional(),
});
export type ClientRoot = z.infer<typeof ClientRootSchema>;
export const ClientRootsSchema = z.array(ClientRootSchema).max(100);

export const ServerRequestMethodSchema = z.enum(['sampling/createMessage', 'elicitation/create']);
export type ServerRequestMethod = z.infer<typeof ServerRequestMethodSchema>;

/** A server→client request waiting for the user. `params` are as the server sent them. */
export const PendingServerRequestSchema = z.object({
  /** The console's own id (the JSON-RPC id is the server's and may repeat across sessions). */
  id: z.string(),
  sessionId: z.string(),
  method: ServerRequestMethodSchema,
  params: z.record(z.string(), z.unknown()),
  receivedAt: z.string(),
  /** When it will be answered with a timeout error if the user has not answered by then. */
  expiresAt: z.string(),
});
export type PendingServerRequest = z.infer<typeof PendingServerRequestSchema>;

/** A reply to sampling/createMessage: one text message, as a model would give it. */
export const SamplingAnswerSchema = z.object({
  kind: z.literal('sampling'),
  model: z.string().trim().min(1, 'name the model that answered (any name: the user is the model here)'),
  role: z.enum(['assistant', 'user']).default('assistant'),
  text: z.string(),
  /** endTurn, stopSequence, maxTokens, or any other reason the server should see. */
  stopReason: z.string().trim().min(1).optional(),
});

/** A reply to elicitation/create. `content` (accept in form mode) is checked against the request's schema. */
export const ElicitationAnswerSchema = z.object({
  kind: z.literal('elicitation'),
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
});

/** Refuses the request: the server gets a JSON-RPC error (code -1, "rejected by the user"). */
export const RejectAnswerSchema = z.object({
  kind: z.literal('reject'),
  message: z.string().trim().max(500).optional(),
});

export const ServerRequestAnswerSchema = z.discriminatedUnion('kind', [SamplingAnswerSchema, ElicitationAnswerSchema, RejectAnswerSchema]);
export type ServerRequestAnswer = z.infer<typeof ServerRequestAnswerSchema>;
