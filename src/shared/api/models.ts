// Data shapes that cross the API boundary. Shapes owned by other capabilities (gateway config,
// execution records, chain traces) stay loose here: their owners validate them, the contract only
// pins what the screens rely on.
import { z } from 'zod';

const Json = z.unknown();
const Iso = z.string();

export const GatewayIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and dashes (e.g. "my-gateway")');

export const GatewayStatusSchema = z.enum(['stopped', 'starting', 'running', 'stopping', 'failed']);
export type GatewayStatus = z.infer<typeof GatewayStatusSchema>;

export const EndpointSummarySchema = z.object({
  name: z.string(),
  transport: z.string(),
  /** The command line of a stdio entry or the URL of an http/sse entry. */
  target: z.string(),
});

export const ServerStatusSchema = z.enum(['connected', 'failed', 'pending', 'stopped']);

export const InterceptorServerStateSchema = EndpointSummarySchema.extend({
  status: ServerStatusSchema,
  error: z.string().optional(),
  failOpen: z.boolean(),
  interceptorCount: z.number().int().optional(),
  /** Interceptors it lists whose config cannot work (e.g. tool-allowlist without config.allow): skipped until fixed. */
  configErrors: z.array(z.string()).optional(),
});
export type InterceptorServerState = z.infer<typeof InterceptorServerStateSchema>;

export const ListenInfoSchema = z.object({
  transport: z.enum(['stdio', 'http']),
  /** The URL clients connect to (http listeners only, known once started or configured with a port). */
  url: z.string().optional(),
  /** Whether the http listener requires a bearer token. */
  requiresToken: z.boolean().optional(),
});

/** Whether a running gateway reaches its backend (src/main/gateway/backend/health.ts). */
export const BackendHealthSchema = z.object({
  state: z.enum(['unknown', 'connected', 'failing']),
  since: Iso.optional(),
  error: z.string().optional(),
  failures: z.number().int(),
});
export type BackendHealth = z.infer<typeof BackendHealthSchema>;

export const GatewayInfoSchema = z.object({
  id: GatewayIdSchema,
  name: z.string(),
  status: GatewayStatusSchema,
  error: z.string().optional(),
  listen: ListenInfoSchema,
  backend: EndpointSummarySchema,
  interceptorServers: z.array(InterceptorServerStateSchema),
  /** Present while the gateway runs in the console. */
  backendHealth: BackendHealthSchema.optional(),
  autoStart: z.boolean(),
  demo: z.boolean(),
  configPath: z.string(),
  startedAt: Iso.optional(),
  /** The last config swap while running: hot (sessions kept) unless a backend/listener change forced a restart. */
  lastReload: z.object({ at: Iso, restarted: z.boolean() }).optional(),
});
export type GatewayInfo = z.infer<typeof GatewayInfoSchema>;

export const GatewayCountersSchema = z.object({
  calls: z.number().int(),
  blocked: z.number().int(),
  mutated: z.number().int(),
  errors: z.number().int(),
  p50Ms: z.number().nullable(),
});
export type GatewayCounters = z.infer<typeof GatewayCountersSchema>;

export const LatencyBucketSchema = z.object({ start: Iso, calls: z.number().int(), p50Ms: z.number().nullable() });
export type LatencyBucket = z.infer<typeof LatencyBucketSchema>;

export const GatewayStatsSchema = z.object({
  gatewayId: GatewayIdSchema,
  counters: GatewayCountersSchema,
  buckets: z.array(LatencyBucketSchema),
  /** Recording health (queued/written/failed): losses are shown, never hidden. */
  recorder: z.object({ queued: z.number(), written: z.number(), failed: z.number(), lastError: z.string().optional() }),
});
export type GatewayStats = z.infer<typeof GatewayStatsSchema>;

export const ConnectSnippetsSchema = z.object({
  /** Snippets that launch the headless gateway over stdio (null when the gateway listens on http only). */
  stdio: z.object({
    claudeDesktop: z.string(),
    cursor: z.string(),
    vscode: z.string(),
    command: z.string(),
    /** The config file the launched gateway runs and follows: the one the Chain screen saves. */
    configPath: z.string(),
    /** How the launched gateway gets the PostgreSQL password, which the snippet never holds. */
    dbNote: z.string().optional(),
  }),
  /** Snippets pointing at the running HTTP listener (null when it has none). */
  http: z.object({ url: z.string(), claudeDesktop: z.string(), cursor: z.string(), vscode: z.string() }).nullable(),
});
export type ConnectSnippets = z.infer<typeof ConnectSnippetsSchema>;

export const ExampleConfigSchema = z.object({ file: z.string(), name: z.string(), description: z.string(), config: Json });
export type ExampleConfig = z.infer<typeof ExampleConfigSchema>;

/** One MCP server found in a Claude Desktop / Cursor / VS Code config file. */
export const ImportedServerSchema = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http', 'sse']),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
});
export type ImportedServer = z.infer<typeof ImportedServerSchema>;

export const ParsedClientConfigSchema = z.object({
  /** `mcpServers` (Claude Desktop, Cursor, Windsurf…) or VS Code's `servers` (mcp.json, or settings.json under "mcp"). */
  format: z.enum(['mcpServers', 'vscode']),
  servers: z.array(ImportedServerSchema),
  /** Entries that could not be read, with why (never silently dropped). */
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
});
export type ParsedClientConfig = z.infer<typeof ParsedClientConfigSchema>;

export const DescriptorSchema = z.looseObject({ name: z.string(), type: z.string() });
export const DiscoveryViewSchema = z.object({
  server: z.string(),
  interceptors: z.array(DescriptorSchema),
  skipped: z.array(z.object({ name: z.string().optional(), reason: z.string() })),
  durationMs: z.number(),
});

export const OrderedInterceptorSchema = z.looseObject({
  id: z.string(),
  server: z.string(),
  name: z.string(),
  type: z.string(),
  pass: z.string(),
  priority: z.number(),
});

export const OutcomeSchema = z.enum(['allow', 'blocked', 'mutated', 'error']);

export const HistoryFilterSchema = z.object({
  gateway: z.string().optional(),
  /** The host whose gateway recorded the execution (shared PostgreSQL histories). */
  host: z.string().optional(),
  event: z.string().optional(),
  target: z.string().optional(),
  outcome: OutcomeSchema.optional(),
  interceptor: z.string().optional(),
  /** Executions blocked by this interceptor (`server/name` or a bare name). */
  blockedBy: z.string().optional(),
  search: z.string().optional(),
  since: Iso.optional(),
  until: Iso.optional(),
});
export type HistoryFilter = z.infer<typeof HistoryFilterSchema>;

export const ThemeSchema = z.enum(['system', 'light', 'dark']);
export type Theme = z.infer<typeof ThemeSchema>;

export const SettingsSchema = z.object({
  theme: ThemeSchema,
  retention: z.object({
    maxExecutions: z.number().int().positive().nullable(),
    maxAgeDays: z.number().int().positive().nullable(),
  }),
  /** JSON paths redacted before anything is written (the store applies them). */
  redactPaths: z.array(z.string()),
  /** Create and start the demo gateway on first start. */
  demoGateway: z.boolean(),
  /**
   * The history the console uses when neither --db nor INTERCEPTOR_CONSOLE_DB names one: the local SQLite
   * file (absent = this), or a PostgreSQL URL saved without its password (history.switchStore sets it).
   */
  historyStore: z.discriminatedUnion('kind', [z.object({ kind: z.literal('sqlite') }), z.object({ kind: z.literal('postgres'), url: z.string() })]).optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const AppInfoSchema = z.object({
  version: z.string(),
  mode: z.enum(['electron', 'web', 'test']),
  dataDir: z.string(),
  dbPath: z.string(),
  /** Which optional parts are wired in (the screens say so instead of failing obscurely). */
  capabilities: z.object({ gateway: z.boolean(), chain: z.boolean(), store: z.boolean(), replay: z.boolean() }),
  /** Why history is kept in memory only (the SQLite file could not be opened), when it is. */
  storeError: z.string().optional(),
  /** Set when the history was named at start (`--db` or `INTERCEPTOR_CONSOLE_DB`): it wins over Settings. */
  dbOverride: z.string().optional(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;
