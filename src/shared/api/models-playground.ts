// Shapes of the Playground's API: failure simulations and the built-in MCP client's sessions.
import { z } from 'zod';
import { GatewayIdSchema } from './models';
import { ClientRootsSchema } from './models-client-requests';

export const SimulatedFailureKindSchema = z.enum(['timeout', 'crash']);

/** One armed failure simulation: the next `remaining` invocations of `server/name` fail this way. */
export const SimulationSchema = z.object({
  id: z.string(),
  gateway: GatewayIdSchema,
  server: z.string(),
  name: z.string(),
  kind: SimulatedFailureKindSchema,
  /** Invocations still to fail; the simulation disarms itself at 0. */
  remaining: z.number().int().nonnegative(),
  count: z.number().int().positive(),
  /** Only for this event / phase (absent: any). */
  event: z.string().optional(),
  phase: z.enum(['request', 'response']).optional(),
  armedAt: z.string(),
});
export type Simulation = z.infer<typeof SimulationSchema>;

/** What the built-in client connects to: a gateway's HTTP listener (with its token), a command, or a URL. */
export const ClientTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('gateway'), id: GatewayIdSchema }),
  z.object({
    kind: z.literal('stdio'),
    /** A command line, split like a shell would (quotes respected), e.g. `npx -y @modelcontextprotocol/server-everything`. */
    command: z.string().min(1, 'enter the command that starts the server'),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
  }),
  z.object({
    kind: z.literal('http'),
    url: z.url({ protocol: /^https?$/, message: 'enter an http(s) URL such as http://127.0.0.1:3001/mcp' }),
    headers: z.record(z.string(), z.string()).optional(),
  }),
]);
export type ClientTarget = z.infer<typeof ClientTargetSchema>;

export const ClientSessionSchema = z.object({
  sessionId: z.string(),
  /** What it is connected to, for people: "gateway demo (http://127.0.0.1:…/mcp)". */
  label: z.string(),
  target: ClientTargetSchema,
  serverInfo: z.looseObject({ name: z.string(), version: z.string().optional() }).optional(),
  protocolVersion: z.string().optional(),
  instructions: z.string().optional(),
  capabilities: z.record(z.string(), z.unknown()),
  connectedAt: z.string(),
  /** What the client declared it can do (sampling, elicitation, roots), as sent in initialize. */
  clientCapabilities: z.record(z.string(), z.unknown()),
  roots: ClientRootsSchema,
  /** How many times the server asked for the roots (roots/list), and when it last did. */
  rootsListCount: z.number().int().nonnegative(),
  rootsListedAt: z.string().optional(),
  answerTimeoutMs: z.number().int(),
});
export type ClientSession = z.infer<typeof ClientSessionSchema>;

const Listed = z.array(z.looseObject({}));
export const ClientCatalogSchema = z.object({
  tools: Listed,
  prompts: Listed,
  resources: Listed,
  resourceTemplates: Listed,
  /** A list the server does not offer or that failed, with why (never silently empty). */
  errors: z.record(z.string(), z.string()),
});
export type ClientCatalog = z.infer<typeof ClientCatalogSchema>;

export const ClientCallResultSchema = z.object({
  /** The result exactly as the server (or gateway) returned it. */
  result: z.record(z.string(), z.unknown()),
  durationMs: z.number(),
});
