// The Playground's procedures (spread into `procedures`): failure simulation on running gateways and
// the built-in MCP client, whose connections live in the core and are driven from here.
import { z } from 'zod';
import { GatewayIdSchema } from './models';
import {
  ClientCallResultSchema,
  ClientCatalogSchema,
  ClientSessionSchema,
  ClientTargetSchema,
  SimulatedFailureKindSchema,
  SimulationSchema,
} from './models-playground';
import { AuthorizationTimeoutSchema, ClientAuthorizationSchema } from './models-client-oauth';
import { ClientCompletionInputSchema, ClientCompletionSchema } from './models-client-completion';
import { ClientRootsSchema, MAX_ANSWER_TIMEOUT_MS, PendingServerRequestSchema, ServerRequestAnswerSchema } from './models-client-requests';

const Session = z.object({ sessionId: z.string().min(1) });
const Args = z.record(z.string(), z.unknown()).default({});

function proc<I extends z.ZodType, O extends z.ZodType>(input: I, output: O, summary: string) {
  return { input, output, summary };
}

export const playgroundProcedures = {
  'simulation.arm': proc(
    z.object({
      id: GatewayIdSchema,
      server: z.string().min(1),
      name: z.string().min(1),
      kind: SimulatedFailureKindSchema,
      count: z.number().int().min(1).max(1000).default(1),
      event: z.string().min(1).optional(),
      phase: z.enum(['request', 'response']).optional(),
    }),
    SimulationSchema,
    'Forces the next N invocations of an interceptor in a gateway to time out or crash.',
  ),
  'simulation.disarm': proc(
    z.object({ id: GatewayIdSchema, simulationId: z.string().optional() }),
    z.object({ disarmed: z.number().int() }),
    'Disarms one simulation, or every simulation of a gateway.',
  ),
  'simulation.list': proc(z.object({ id: GatewayIdSchema.optional() }).optional(), z.array(SimulationSchema), 'Armed failure simulations.'),

  'client.connect': proc(
    z.object({
      target: ClientTargetSchema,
      /** The roots the client offers from the start (changeable later with client.setRoots). */
      roots: ClientRootsSchema.optional(),
      /** How long a server→client request (sampling, elicitation) waits for the user; default 5 min. */
      answerTimeoutMs: z.number().int().min(1000).max(MAX_ANSWER_TIMEOUT_MS).optional(),
      /** How long an HTTP server's OAuth authorization waits for the user to finish it in the browser; default 5 min. */
      authorizationTimeoutMs: AuthorizationTimeoutSchema.optional(),
    }),
    ClientSessionSchema,
    'Connects the built-in MCP client to a gateway or a server. An HTTP server that answers 401 with MCP authorization is authorized first (OAuth with PKCE; see client.authorizations): the call resolves once the user has allowed access in the browser.',
  ),
  'client.authorizations': proc(
    z.object({}).optional(),
    z.array(ClientAuthorizationSchema),
    'The connects waiting for the user to authorize them in a browser, with the URL to open.',
  ),
  'client.cancelAuthorization': proc(
    z.object({ authorizationId: z.string().min(1) }),
    z.object({ cancelled: z.boolean() }),
    'Stops waiting for an authorization; its connect fails saying it was cancelled.',
  ),
  'client.sessions': proc(z.object({}).optional(), z.array(ClientSessionSchema), 'The open client sessions.'),
  'client.disconnect': proc(Session, z.object({ done: z.literal(true) }), 'Closes a client session.'),
  'client.list': proc(Session, ClientCatalogSchema, 'Tools, prompts, resources and resource templates of the connected server.'),
  'client.callTool': proc(Session.extend({ name: z.string().min(1), arguments: Args }), ClientCallResultSchema, 'tools/call'),
  'client.getPrompt': proc(
    Session.extend({ name: z.string().min(1), arguments: z.record(z.string(), z.string()).default({}) }),
    ClientCallResultSchema,
    'prompts/get',
  ),
  'client.readResource': proc(Session.extend({ uri: z.string().min(1) }), ClientCallResultSchema, 'resources/read'),
  'client.pending': proc(
    z.object({ sessionId: z.string().min(1).optional() }).optional(),
    z.array(PendingServerRequestSchema),
    'Server→client requests (sampling, elicitation) waiting for the user, oldest first.',
  ),
  'client.answer': proc(
    Session.extend({ requestId: z.string().min(1), answer: ServerRequestAnswerSchema }),
    z.object({ done: z.literal(true) }),
    'Answers a pending server→client request (checked against the request before it goes back to the server).',
  ),
  'client.setRoots': proc(
    Session.extend({ roots: ClientRootsSchema }),
    z.object({ roots: ClientRootsSchema, notified: z.boolean() }),
    'Replaces the roots the client offers and sends notifications/roots/list_changed.',
  ),
  'client.ping': proc(Session, z.object({ roundTripMs: z.number() }), 'ping: the server answers, in how many ms.'),
  'client.complete': proc(
    ClientCompletionInputSchema,
    ClientCompletionSchema,
    "completion/complete: the server's suggestions for a prompt argument or a resource template's URI variable.",
  ),
  'client.notifications': proc(
    Session.extend({ after: z.number().int().min(0).default(0) }),
    z.array(z.object({ seq: z.number().int(), at: z.string(), method: z.string(), params: z.unknown().optional() })),
    'What the server sent on its own (log messages, progress, list and resource changes) after notification `after`.',
  ),
  'client.subscribe': proc(
    Session.extend({ uri: z.string().min(1) }),
    z.object({ subscribed: z.literal(true) }),
    'resources/subscribe: the server then reports changes of the resource as notifications.',
  ),
  'client.setLogLevel': proc(
    Session.extend({ level: z.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']) }),
    z.object({ level: z.string() }),
    'logging/setLevel: the least severe log message the server sends from now on.',
  ),
} as const;
