// The app API contract: procedure name → zod input and output. Imported by the core dispatcher,
// the Electron preload, web mode and the renderer, so all of them agree on one definition.
import { z } from 'zod';
import {
  AppInfoSchema,
  ConnectSnippetsSchema,
  DiscoveryViewSchema,
  ExampleConfigSchema,
  GatewayIdSchema,
  GatewayInfoSchema,
  GatewayStatsSchema,
  GatewayStatusSchema,
  HistoryFilterSchema,
  ImportedServerSchema,
  InterceptorServerStateSchema,
  OrderedInterceptorSchema,
  ParsedClientConfigSchema,
  SettingsSchema,
} from './models';
import { SinkEventPageSchema } from './models-traffic';
import { ChainTraceSchema } from './models-trace';
import { ExecutionDetailSchema, ExecutionPageSchema } from './models-execution';
import { trafficProcedures } from './procedures-traffic';
import { playgroundProcedures } from './procedures-playground';
import { chainProcedures } from './procedures-chain';
import { messagesProcedures } from './procedures-messages';
import { breakpointsProcedures } from './procedures-breakpoints';
import { chainTestProcedures } from './procedures-chain-tests';
import { InvocationContextSchema, PhaseSchema } from '../protocol/schemas';

const Phase = PhaseSchema;
/** A gateway config file's content. Its schema belongs to the gateway (src/shared/config); the service validates it. */
const GatewayConfig = z.record(z.string(), z.unknown());
const ById = z.object({ id: GatewayIdSchema });
const None = z.object({}).optional();
const Done = z.object({ done: z.literal(true) });
/** The invoke context a user may set by hand (principal, traceId, sessionId…): the protocol's own schema. */
const InvocationContextInput = InvocationContextSchema;

function proc<I extends z.ZodType, O extends z.ZodType>(input: I, output: O, summary: string) {
  return { input, output, summary };
}

export const procedures = {
  'app.info': proc(None, AppInfoSchema, 'Version, mode, data folder and which parts are wired in.'),

  'gateways.list': proc(None, z.array(GatewayInfoSchema), 'Every configured gateway with its live status.'),
  'gateways.get': proc(ById, GatewayInfoSchema.extend({ config: GatewayConfig }), 'One gateway and its config.'),
  'gateways.create': proc(
    z.object({
      id: GatewayIdSchema.optional(),
      config: GatewayConfig,
      start: z.boolean().default(false),
      /** Run `interceptor-console` and server-everything commands from this installation (for shipped examples). */
      localize: z.boolean().default(false),
    }),
    GatewayInfoSchema,
    'Creates a gateway from a config (validated by the gateway schema) and optionally starts it.',
  ),
  'gateways.update': proc(
    z.object({ id: GatewayIdSchema, config: GatewayConfig }),
    GatewayInfoSchema,
    'Replaces a gateway config; a running gateway restarts with it.',
  ),
  'gateways.start': proc(ById, GatewayInfoSchema, 'Starts a gateway.'),
  'gateways.stop': proc(ById, GatewayInfoSchema, 'Stops a gateway and its child processes.'),
  'gateways.restart': proc(ById, GatewayInfoSchema, 'Stops then starts a gateway.'),
  'gateways.delete': proc(ById, Done, 'Stops and forgets a gateway (its recorded history stays).'),
  'gateways.status': proc(
    ById,
    z.object({ id: GatewayIdSchema, status: GatewayStatusSchema, error: z.string().optional() }),
    'The live status of one gateway.',
  ),
  'gateways.stats': proc(
    z.object({
      id: GatewayIdSchema,
      minutes: z
        .number()
        .int()
        .min(1)
        .max(24 * 60)
        .default(30),
    }),
    GatewayStatsSchema,
    'Counters (calls, blocked, mutated, errors, p50) and latency buckets from the store.',
  ),
  'gateways.snippets': proc(ById, ConnectSnippetsSchema, '"Connect a client" snippets for Claude Desktop, Cursor and VS Code.'),
  'gateways.examples': proc(None, z.array(ExampleConfigSchema), 'The example configs shipped in resources/examples.'),
  'gateways.parseClientConfig': proc(
    z.object({ text: z.string().max(2_000_000) }),
    ParsedClientConfigSchema,
    'Reads the MCP servers of a Claude Desktop, Cursor or VS Code config file.',
  ),
  'gateways.importServers': proc(
    z.object({
      servers: z.array(ImportedServerSchema).min(1),
      withSamples: z.boolean().default(true),
      /** The imported config's format: the config to paste back is written in it. */
      format: z.enum(['mcpServers', 'vscode']).default('mcpServers'),
    }),
    z.object({
      gateways: z.array(GatewayInfoSchema),
      /** Gateways created but not started: their backend command is missing here, or their start failed. */
      notStarted: z.array(z.object({ id: z.string(), reason: z.string() })),
      /** The client config with each imported server launched through its gateway, to paste back. */
      clientConfig: z.string(),
    }),
    'Creates one gateway per imported server (backend = that server), optionally with the sample interceptors; starts those whose command exists here.',
  ),

  'servers.list': proc(ById, z.array(InterceptorServerStateSchema), 'The interceptor servers of a gateway config.'),
  'servers.discover': proc(
    z.object({ id: GatewayIdSchema, server: z.string().min(1), refresh: z.boolean().default(false) }),
    DiscoveryViewSchema,
    'Lists the interceptors a server offers (interceptors/list).',
  ),
  'servers.invoke': proc(
    z.object({
      id: GatewayIdSchema,
      server: z.string().min(1),
      name: z.string().min(1),
      event: z.string().min(1),
      phase: Phase,
      payload: z.unknown(),
      config: z.record(z.string(), z.unknown()).optional(),
      timeoutMs: z.number().int().positive().max(600_000).optional(),
      context: InvocationContextInput.optional(),
    }),
    z.object({
      result: z.unknown().optional(),
      error: z.object({ kind: z.string(), message: z.string(), code: z.number().optional(), data: z.unknown().optional() }).optional(),
      durationMs: z.number(),
      /** The raw JSON-RPC `interceptor/invoke` request and response, as sent and received. */
      rpc: z.object({ request: z.record(z.string(), z.unknown()).optional(), response: z.record(z.string(), z.unknown()).optional() }).optional(),
    }),
    'Invokes one interceptor by hand (interceptor/invoke).',
  ),

  'chain.order': proc(
    z.object({
      id: GatewayIdSchema,
      event: z.string().min(1),
      phase: Phase,
      /** An unsaved draft of the gateway's config (the Chain screen); default: the saved config. */
      config: GatewayConfig.optional(),
      /** Negotiated protocol version to check `compat` ranges against (A17). */
      protocolVersion: z.string().optional(),
    }),
    z.object({ event: z.string(), phase: Phase, interceptors: z.array(OrderedInterceptorSchema) }),
    'The effective order for an event and phase (mutations in order, validations, sinks, then skipped ones with the reason), computed by the chain engine.',
  ),
  'chain.dryRun': proc(
    z.object({ id: GatewayIdSchema, event: z.string().min(1), phase: Phase, payload: z.unknown(), context: InvocationContextInput.optional() }),
    ChainTraceSchema,
    'Runs the chain of a gateway on a payload without a backend.',
  ),

  'history.query': proc(
    z.object({ filter: HistoryFilterSchema.default({}), cursor: z.string().optional(), limit: z.number().int().min(1).max(500).default(100) }),
    ExecutionPageSchema,
    'Recorded executions, newest first, filtered, keyset-paginated.',
  ),
  'history.detail': proc(z.object({ executionId: z.string().min(1) }), ExecutionDetailSchema, 'One execution with its steps and sink events.'),
  'history.export': proc(
    z.object({ filter: HistoryFilterSchema.default({}), ids: z.array(z.string().min(1)).min(1).max(10_000).optional() }),
    z.object({ jsonl: z.string(), count: z.number().int() }),
    'Exports executions as JSONL: the given ids (a selection), else every execution matching the filter.',
  ),
  'history.import': proc(z.object({ jsonl: z.string() }), z.object({ imported: z.number().int() }), 'Imports a JSONL export (all or nothing).'),
  'history.prune': proc(
    z.object({ maxExecutions: z.number().int().positive().optional(), maxAgeDays: z.number().positive().optional() }),
    z.object({ deleted: z.number().int() }),
    'Deletes old executions by count and/or age.',
  ),
  'history.prunePreview': proc(
    z.object({ maxExecutions: z.number().int().positive().optional(), maxAgeDays: z.number().int().positive().optional() }),
    z.object({ wouldDelete: z.number().int(), total: z.number().int() }),
    'How many executions a retention policy would delete now (asked before saving it), of how many recorded.',
  ),

  'replay.run': proc(
    z.object({
      executionId: z.string().min(1),
      mode: z.enum(['backend', 'chain-only']).default('backend'),
      /** Edit & replay: these request params instead of the recorded ones. */
      params: z.unknown().optional(),
    }),
    ExecutionDetailSchema,
    'Re-sends a recorded request through the current chain (to the backend, or the chain only); the replay is recorded and linked.',
  ),

  'sinks.query': proc(
    z.object({
      gateway: z.string().optional(),
      interceptor: z.string().optional(),
      event: z.string().optional(),
      phase: z.enum(['request', 'response']).optional(),
      recorded: z.boolean().optional(),
      since: z.string().optional(),
      until: z.string().optional(),
      cursor: z.string().optional(),
      limit: z.number().int().min(1).max(500).default(100),
    }),
    SinkEventPageSchema,
    'Recorded sink events, newest first, filtered, keyset-paginated.',
  ),

  'history.testConnection': proc(
    z.object({ url: z.string().trim().min(1).max(2000) }),
    z.object({ ok: z.boolean(), serverVersion: z.string().optional(), error: z.string().optional() }),
    'Connects once to a PostgreSQL history (postgres://…) and says whether it answers; the password is never echoed.',
  ),

  'history.switchStore': proc(
    z.discriminatedUnion('kind', [z.object({ kind: z.literal('sqlite') }), z.object({ kind: z.literal('postgres'), url: z.string().trim().min(1).max(2000) })]),
    z.object({ kind: z.enum(['sqlite', 'postgres']), dbPath: z.string() }),
    'Switches the console to the local SQLite file or a PostgreSQL history, in-process (gateways keep recording, into the new store), and saves the choice (the password in an owner-only file); a store that cannot be opened leaves the current one in use.',
  ),

  'settings.get': proc(None, SettingsSchema, 'The persisted settings.'),
  'settings.update': proc(
    // The history store is switched by history.switchStore, which opens it first.
    SettingsSchema.omit({ historyStore: true }).partial(),
    SettingsSchema.extend({ pruned: z.number().int().optional() }),
    'Changes some settings and returns all of them; a new retention applies at once and `pruned` says how many executions it deleted.',
  ),
  ...trafficProcedures,
  ...playgroundProcedures,
  ...chainProcedures,
  ...messagesProcedures,
  ...breakpointsProcedures,
  ...chainTestProcedures,
} as const;

export type Procedures = typeof procedures;
export type ProcedureName = keyof Procedures;
/** What a caller passes (defaults may be omitted). */
export type ProcedureInput<N extends ProcedureName> = z.input<Procedures[N]['input']>;
/** What a handler receives (defaults applied). */
export type ProcedureArgs<N extends ProcedureName> = z.output<Procedures[N]['input']>;
export type ProcedureOutput<N extends ProcedureName> = z.output<Procedures[N]['output']>;

export const PROCEDURE_NAMES = Object.keys(procedures) as ProcedureName[];

export function isProcedureName(name: unknown): name is ProcedureName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(procedures, name);
}
