/** SEP-2133 extension id under which hosts advertise interceptor support (A16). */
export const INTERCEPTORS_EXTENSION_ID = 'io.modelcontextprotocol/interceptors';

export const METHOD_LIST = 'interceptors/list';
export const METHOD_INVOKE = 'interceptor/invoke';
/** Reserved by S4; we refresh discovery when a host sends it (A15). */
export const NOTIFICATION_LIST_CHANGED = 'notifications/interceptors/list_changed';

/**
 * The first MCP revision whose requests carry a per-request envelope (`_meta`) that the SDK must add and
 * check: the stdio transports of both ends (host and invoker) answer invokes themselves only below it.
 */
export const FIRST_ENVELOPE_REVISION = '2026-07-28';

/** JSON-RPC error codes used by the interceptor protocol (no new codes are minted). */
export const ErrorCode = {
  /** Host lacks the extension. */
  MethodNotFound: -32601,
  /** Unknown interceptor, bad params, config failing configSchema. */
  InvalidParams: -32602,
  /** Interceptor threw. */
  InternalError: -32603,
  /** Invoke timeout on the host side (A10). */
  Timeout: -32000,
} as const;

/** Events a gateway can intercept (spec §2.1). Any other `namespace/operation` string is legal too. */
export const KNOWN_EVENTS = [
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/read',
  'resources/subscribe',
  'sampling/createMessage',
  'elicitation/create',
  'roots/list',
  'llm/completion',
] as const;

/** Never matched, even by "*" (S4). */
export const NEVER_INTERCEPTED = new Set(['initialize', 'ping', 'completion/complete']);

export const PHASES = ['request', 'response'] as const;
export type Phase = (typeof PHASES)[number];
