// The gateway config file: the reference `mcp-interceptors.json` format of the C# ConfigDrivenGatewaySample
// (serverInfo, backend, staticInterceptors, dynamicInterceptors, interceptedEvents) read unchanged, plus this
// project's extensions. Objects are strict so that a misspelt key is an error instead of a silently ignored
// setting; every leaf carries an `error` that says what was expected, because that text is what users read.
import { z } from 'zod';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../protocol/payload-size';
import { BreakpointSchema } from './breakpoints';
import { durationMs } from './durations';

const ModeSchema = z.preprocess((v) => (v === 'enforce' ? 'active' : v), z.enum(['active', 'audit'], { error: 'expected "active" or "audit"' }));
const PhaseSchema = z.enum(['request', 'response'], { error: 'expected "request" or "response"' });

const stringMap = (what: string) =>
  z.record(z.string(), z.string({ error: `expected a string (${what})` }), { error: `expected an object of strings (${what})` });

/** One transport entry; `role` words the error messages ("the backend", "the interceptor server"). */
function transportEntry(role: string) {
  const common = {
    name: z.string({ error: `expected a string (a name for ${role})` }).min(1, { error: `expected a non-empty name for ${role}` }),
    connectionId: z
      .string({ error: 'expected a string (an identity for this connection)' })
      .optional()
      .describe('Optional identity of this connection (the reference format uses it for dynamic entries).'),
  };
  const stdio = z.strictObject({
    transport: z.literal('stdio'),
    ...common,
    command: z.string({ error: `expected a string (the command that starts ${role})` }).min(1, { error: `expected a non-empty command that starts ${role}` }),
    arguments: z.array(z.string({ error: 'expected a string argument' }), { error: 'expected an array of strings' }).default([]),
    env: stringMap('environment variables for the child process').optional(),
    cwd: z.string({ error: 'expected a string (the working directory of the child process)' }).optional(),
  });
  const endpoint = z.url({ error: `expected a URL (the endpoint of ${role}, e.g. http://localhost:3001/mcp)` });
  const http = z.strictObject({
    transport: z.literal('http'),
    ...common,
    endpoint,
    headers: stringMap('HTTP headers sent with every request').optional(),
  });
  const sse = z.strictObject({
    transport: z.literal('sse'),
    ...common,
    endpoint,
    headers: stringMap('HTTP headers sent with every request').optional(),
  });
  return { stdio, http, sse };
}

const backendEntries = transportEntry('the backend');
const interceptorEntries = transportEntry('the interceptor server');
const failOpen = {
  failOpen: z
    .boolean({ error: 'expected true or false' })
    .optional()
    .describe('A8: when discovery of this server fails, continue without it instead of blocking (default false).'),
};
export const BackendEntrySchema = z
  .discriminatedUnion('transport', [backendEntries.stdio, backendEntries.http, backendEntries.sse], {
    error: (issue) =>
      typeof issue.input !== 'object' || issue.input === null
        ? 'expected an object describing how to reach the backend'
        : 'expected "transport" to be "stdio", "http" or "sse" (how to reach the backend)',
  })
  .describe('The MCP server the gateway fronts.');
/**
 * The bundled samples hosted inside the gateway's own process: what `interceptor-console serve-samples`
 * serves, invoked as function calls (no child process, no pipe, no JSON-RPC in between). Large payloads
 * still run on worker threads, as under serve-samples.
 */
const bundledInterceptorEntry = z
  .strictObject({
    transport: z.literal('bundled'),
    name: z
      .string({ error: 'expected a string (a name for the interceptor server)' })
      .min(1, { error: 'expected a non-empty name for the interceptor server' }),
    connectionId: z.string({ error: 'expected a string (an identity for this connection)' }).optional(),
  })
  .extend(failOpen);
export const InterceptorServerEntrySchema = z
  .discriminatedUnion('transport', [interceptorEntries.stdio.extend(failOpen), interceptorEntries.http.extend(failOpen), bundledInterceptorEntry], {
    error: (issue) =>
      typeof issue.input !== 'object' || issue.input === null
        ? 'expected an object describing how to reach the interceptor server'
        : 'expected "transport" to be "stdio", "http" or "bundled" (how to reach the interceptor server; "bundled" hosts the bundled samples in the gateway process)',
  })
  .describe('An interceptor server: an MCP server offering interceptors/list and interceptor/invoke.');

const HookSchema = z.strictObject({
  events: z.array(z.string({ error: 'expected an event name' }), { error: 'expected an array of event names' }),
  phase: PhaseSchema,
});

export const OverrideSchema = z
  .strictObject({
    enabled: z.boolean({ error: 'expected true or false' }).optional(),
    mode: ModeSchema.optional(),
    failOpen: z.boolean({ error: 'expected true or false' }).optional(),
    priorityHint: z
      .union([z.number().int(), z.strictObject({ request: z.number().int().optional(), response: z.number().int().optional() })], {
        error: 'expected an integer or {request?, response?} integers',
      })
      .optional(),
    timeoutMs: durationMs().positive().optional(),
    config: z.record(z.string(), z.unknown(), { error: 'expected an object (the interceptor config)' }).optional(),
    hooks: z.array(HookSchema, { error: 'expected an array of {events, phase}' }).optional(),
  })
  .describe('A11: invoker-side policy for one interceptor; hooks may only narrow the declared hooks.');

const StdioListenSchema = z.strictObject({
  transport: z.literal('stdio'),
  principal: z.string({ error: 'expected a string (the user the stdio client acts as)' }).optional(),
});
const HttpListenSchema = z.strictObject({
  transport: z.literal('http'),
  host: z.string({ error: 'expected a host name or address to bind' }).default('127.0.0.1'),
  port: z
    .number({ error: 'expected a port number (0 picks a free port)' })
    .int({ error: 'expected an integer port' })
    .min(0, { error: 'expected a port between 0 and 65535' })
    .max(65535, { error: 'expected a port between 0 and 65535' }),
  path: z.string({ error: 'expected a URL path such as /mcp' }).startsWith('/', { error: 'expected a path starting with /' }).default('/mcp'),
  tokens: stringMap('bearer token → principal').optional().describe('Bearer token → principal. When set, requests without a known token get 401.'),
  allowedOrigins: z
    .array(z.string(), { error: 'expected an array of origins' })
    .optional()
    .describe(
      "Extra exact origins (e.g. http://localhost:6274) to accept besides the listener's own; other browser origins, other local ports included, get 403.",
    ),
  allowedHosts: z
    .array(z.string(), { error: 'expected an array of host names' })
    .optional()
    .describe(
      'Extra Host names (any port) to accept besides the bound host and loopback names (DNS-rebinding protection). Loopback names are accepted from this machine only, unless listed here.',
    ),
  allowRemoteWithoutToken: z
    .boolean({ error: 'expected true or false' })
    .optional()
    .describe(
      'A host other than a loopback address (e.g. 0.0.0.0) without tokens lets anyone who reaches the port use the backend: the gateway refuses to start so unless this is true (and then warns).',
    ),
  sessionIdleTimeoutMs: durationMs()
    .positive()
    .default(10 * 60 * 1000)
    .describe('A client session with no request for this long is closed, and its backend process stopped.'),
  maxSessions: z
    .number({ error: 'expected a number of sessions' })
    .int()
    .positive()
    .default(64)
    .describe('Most client sessions open at once; one more initialize is refused with a clear error.'),
});
export const ListenSchema = z.discriminatedUnion('transport', [StdioListenSchema, HttpListenSchema], {
  error: (issue) =>
    typeof issue.input !== 'object' || issue.input === null
      ? 'expected an object describing how clients reach the gateway'
      : 'expected "transport" to be "stdio" or "http" (how clients reach the gateway)',
});

const ControlSchema = z
  .strictObject({
    host: z.string({ error: 'expected a host name or address to bind' }).default('127.0.0.1'),
    port: z
      .number({ error: 'expected a port number (0 picks a free port)' })
      .int({ error: 'expected an integer port' })
      .min(0, { error: 'expected a port between 0 and 65535' })
      .max(65535, { error: 'expected a port between 0 and 65535' }),
    token: z
      .string({ error: 'expected a string (the bearer token a console presents)' })
      .min(16, { error: 'expected a token of at least 16 characters (it lets its holder pause and edit live calls)' }),
  })
  .describe("The gateway's control endpoint: a console attaches to it (with the token) to see paused calls and decide them.");

const RecordingSchema = z.union(
  [
    z.boolean(),
    z.strictObject({
      enabled: z.boolean({ error: 'expected true or false' }).default(true),
    }),
  ],
  { error: 'expected true, false or {enabled}' },
);

export const GatewayConfigSchema = z
  .strictObject({
    $schema: z.string().optional(),
    serverInfo: z
      .looseObject({
        name: z.string({ error: 'expected a string (the name the gateway announces)' }),
        version: z.string({ error: 'expected a string (the version the gateway announces)' }),
      })
      .optional()
      .describe("Announced to clients instead of the backend's serverInfo."),
    backend: BackendEntrySchema,
    staticInterceptors: z.array(InterceptorServerEntrySchema, { error: 'expected an array of interceptor servers' }).default([]),
    dynamicInterceptors: z
      .record(z.string(), z.array(InterceptorServerEntrySchema, { error: 'expected an array of interceptor servers' }), {
        error: 'expected an object: principal → interceptor servers',
      })
      .default({})
      .describe('Principal (case-insensitive) → extra interceptor servers for that principal.'),
    interceptedEvents: z
      .array(z.string({ error: 'expected an event name' }), { error: 'expected an array of event names, or null for all' })
      .nullable()
      .default(null)
      .describe('Events that run through the chain; null means all.'),
    listen: ListenSchema.default({ transport: 'stdio' }),
    timeoutMs: durationMs().positive().optional().describe('Deadline of a whole chain run.'),
    overrides: z
      .record(z.string().regex(/^[^/]+\/.+$/, { error: 'expected a key of the form "<server>/<interceptor>"' }), OverrideSchema, {
        error: (issue) =>
          issue.code === 'invalid_key' ? 'expected a key of the form "<server>/<interceptor>"' : 'expected an object keyed "<server>/<interceptor>"',
      })
      .default({}),
    exposeInterceptorProtocol: z.boolean({ error: 'expected true or false' }).default(false),
    blockedToolCall: z.enum(['result', 'error'], { error: 'expected "result" or "error"' }).default('result'),
    recording: RecordingSchema.default(true),
    captureMessages: z
      .boolean({ error: 'expected true or false' })
      .default(true)
      .describe('Record every JSON-RPC message on each side (client, backend, interceptor servers) for the Messages view; needs recording on.'),
    maxMessageBytes: z
      .number({ error: 'expected a number of bytes' })
      .int()
      .positive()
      .default(4 * 1024 * 1024)
      .describe('Largest JSON-RPC message accepted from a client or forwarded back, in bytes.'),
    maxInvokePayloadBytes: z
      .number({ error: 'expected a number of bytes' })
      .int()
      .positive()
      .default(DEFAULT_MAX_PAYLOAD_BYTES)
      .describe(
        'Largest payload sent to one interceptor, in bytes of JSON; a larger one is refused without sending it, routed by failOpen (fail-closed blocks).',
      ),
    backendTimeoutMs: durationMs()
      .positive()
      .default(120_000)
      .describe(
        "How long a request waits for the backend (reset by each progress notification, and while the backend waits for the client's answer to its sampling or elicitation request); then the client gets an error and the backend notifications/cancelled.",
      ),
    backendMethodTimeoutsMs: z
      .record(z.string(), durationMs().positive(), { error: 'expected an object: method → milliseconds' })
      .default({})
      .describe('Per-method overrides of backendTimeoutMs, e.g. {"tools/call": 300000}.'),
    drainTimeoutMs: durationMs()
      .nonnegative()
      .default(10_000)
      .describe('On stop, how long requests in flight may finish before they are answered with an error.'),
    control: ControlSchema.optional(),
    breakpoints: z
      .array(BreakpointSchema, { error: 'expected an array of breakpoints' })
      .default([])
      .describe('Live calls that pause in the gateway until the console (or the terminal) decides; off when empty.'),
  })
  .describe('Interceptor Console gateway configuration.');

export type GatewayConfigInput = z.input<typeof GatewayConfigSchema>;
export type GatewayConfig = z.output<typeof GatewayConfigSchema>;
export type BackendEntry = z.output<typeof BackendEntrySchema>;
export type InterceptorServerEntry = z.output<typeof InterceptorServerEntrySchema>;
export type InterceptorOverride = z.output<typeof OverrideSchema>;
export type ListenConfig = z.output<typeof ListenSchema>;
export type HttpListenConfig = Extract<ListenConfig, { transport: 'http' }>;
