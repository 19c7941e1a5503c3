// One request/response exchange as the gateway tracks it, and the pure transformations applied on the way:
// the ExecutionRecord handed to the recorder, tools/list schema coercion, the mirrored initialize result.
import type { GatewayConfig } from '../../../shared/config/schema';
import { INTERCEPTORS_EXTENSION_ID } from '../../../shared/protocol/constants';
import type { ExecutionOutcome, ExecutionRecord, SessionRecord } from '../../../shared/trace/execution';
import type { BlockInfo, ChainTrace } from '../../../shared/trace/types';
import type { ChainRuntime, DetachedSinks } from '../../interceptors/chain';
import type { Interception } from '../intercept';
import type { ExchangeBreaks } from '../breakpoints/session-breaks';
import { recordedId } from '../wire/raw-ids';
import { randomUUID } from 'node:crypto';
import type { JsonRpcErrorObject, JsonRpcId, JsonRpcRequest } from '../wire/jsonrpc';

export interface Exchange {
  /** Also the traceId sent in the invoke context. */
  traceId: string;
  id: JsonRpcId;
  method: string;
  /** 'client': a client request to the backend; 'backend': a backend request (sampling, elicitation, roots) to the client. */
  direction: 'client' | 'backend';
  t0: number;
  startedAt: string;
  requestReceived: unknown;
  requestForwarded?: unknown;
  responseReceived?: unknown;
  responseReturned?: unknown;
  errorReturned?: JsonRpcErrorObject;
  requestTrace?: ChainTrace;
  responseTrace?: ChainTrace;
  blockedBy?: BlockInfo;
  progressToken?: string | number;
  /** performance.now() of the last progress notification relayed for this request. */
  lastProgressAt?: number;
  /** Aborts the request-phase chain when the client cancels. */
  abort?: AbortController;
  forwarded?: boolean;
  /** performance.now() when the request was forwarded to the backend (its deadline runs from here). */
  sentAt?: number;
  /** The chain this exchange runs on, pinned at its first phase so a hot reload does not switch it mid-way. */
  chain?: { interception: Interception; runtime: ChainRuntime | null; release: () => void };
  /** Breakpoints: the pauses of this call so far, and whether it is being stepped. */
  breaks?: ExchangeBreaks;
  /**
   * Sink passes still running off the call's path (ChainResult.sinks): the answer never waits for them (A4),
   * the record does, at most RECORD_WAITS_FOR_SINKS_MS after the call's end (exchanges.ts).
   */
  sinks?: DetachedSinks[];
  /** performance.now() when the call was answered: its duration, though the record is made later. */
  endedAt?: number;
}

export function newExchange(req: JsonRpcRequest, direction: Exchange['direction']): Exchange {
  const ex: Exchange = {
    traceId: randomUUID(),
    id: req.id,
    method: req.method,
    direction,
    t0: performance.now(),
    startedAt: new Date().toISOString(),
    requestReceived: req.params,
  };
  const token = progressTokenOf(req.params);
  if (token !== undefined) ex.progressToken = token;
  return ex;
}

/** The newest client request still waiting: server→client traffic during a call belongs to its stream. */
export function newestForwarded(pending: ReadonlyMap<JsonRpcId, Exchange>): JsonRpcId | undefined {
  let last: JsonRpcId | undefined;
  for (const ex of pending.values()) if (ex.forwarded) last = ex.id;
  return last;
}

/** The request a progress notification belongs to (by token); notes when it was relayed. */
export function markProgress(pending: ReadonlyMap<JsonRpcId, Exchange>, token: unknown): JsonRpcId | undefined {
  let related: JsonRpcId | undefined;
  for (const ex of pending.values()) {
    if (ex.progressToken !== token) continue;
    related = ex.id;
    ex.lastProgressAt = performance.now();
  }
  return related;
}

// Levels of a too-deep payload kept in its record and captured message, and the cut copy: shared with the
// interceptor chain, which cuts a too-deep mutation result the same way.
export { depthLimited, RECORD_DEPTH } from '../../../shared/protocol/payload-depth';

/** Tool name, resource uri or prompt name, when the method has one. */
export function targetOf(method: string, params: unknown): string | undefined {
  if (!params || typeof params !== 'object') return undefined;
  const p = params as Record<string, unknown>;
  if (method === 'tools/call' || method === 'prompts/get') return typeof p.name === 'string' ? p.name : undefined;
  if (method.startsWith('resources/')) return typeof p.uri === 'string' ? p.uri : undefined;
  if (method === 'interceptor/invoke') return typeof p.name === 'string' ? p.name : undefined;
  return undefined;
}

export function progressTokenOf(params: Record<string, unknown> | undefined): string | number | undefined {
  const meta = params?._meta as Record<string, unknown> | undefined;
  const token = meta?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

export function outcomeOf(ex: Exchange): ExecutionOutcome {
  if (ex.blockedBy) return 'blocked';
  if (ex.errorReturned) return 'error';
  if (ex.requestTrace?.modified || ex.responseTrace?.modified || ex.breaks?.edited) return 'mutated';
  return 'allow';
}

export function toExecutionRecord(ex: Exchange, gateway: string, sessionId: string): ExecutionRecord {
  const record: ExecutionRecord = {
    id: ex.traceId,
    gateway,
    sessionId,
    jsonrpcId: recordedId(ex.id),
    event: ex.method,
    startedAt: ex.startedAt,
    durationMs: (ex.endedAt ?? performance.now()) - ex.t0,
    outcome: outcomeOf(ex),
    requestReceived: ex.requestReceived,
  };
  const target = targetOf(ex.method, ex.requestReceived);
  if (target !== undefined) record.target = target;
  if (ex.requestForwarded !== undefined) record.requestForwarded = ex.requestForwarded;
  if (ex.responseReceived !== undefined) record.responseReceived = ex.responseReceived;
  if (ex.responseReturned !== undefined) record.responseReturned = ex.responseReturned;
  if (ex.errorReturned) record.errorReturned = ex.errorReturned;
  if (ex.blockedBy) record.blockedBy = ex.blockedBy;
  if (ex.requestTrace) record.requestTrace = ex.requestTrace;
  if (ex.responseTrace) record.responseTrace = ex.responseTrace;
  if (ex.breaks && ex.breaks.pauses.length > 0) record.pauses = ex.breaks.pauses;
  if (ex.requestTrace?.steps.some((s) => s.simulated) || ex.responseTrace?.steps.some((s) => s.simulated)) record.simulated = true;
  return record;
}

/**
 * tools/list: a tool whose inputSchema is missing or not an object schema gets `{"type":"object"}`, so that
 * strict clients (which reject the whole list over one bad tool) keep working. Untouched lists are returned
 * as the same object.
 */
export function coerceToolSchemas(result: Record<string, unknown>): Record<string, unknown> {
  const tools = result.tools;
  if (!Array.isArray(tools)) return result;
  let changed = false;
  const fixed = tools.map((tool: unknown) => {
    if (!tool || typeof tool !== 'object') return tool;
    const t = tool as Record<string, unknown>;
    const schema = t.inputSchema;
    if (schema && typeof schema === 'object' && !Array.isArray(schema) && (schema as Record<string, unknown>).type === 'object') return tool;
    changed = true;
    if (schema && typeof schema === 'object' && !Array.isArray(schema) && (schema as Record<string, unknown>).type === undefined) {
      return { ...t, inputSchema: { ...(schema as Record<string, unknown>), type: 'object' } };
    }
    return { ...t, inputSchema: { type: 'object' } };
  });
  return changed ? { ...result, tools: fixed } : result;
}

/**
 * The initialize result the client sees: the backend's, with the configured serverInfo, without the
 * capabilities a gateway cannot proxy (tasks: task-augmented requests outlive the exchange the chain
 * guards), and with the interceptor extension when the gateway exposes the protocol.
 */
export function mirrorInitializeResult(backend: Record<string, unknown>, config: GatewayConfig, supportedEvents: string[] | null): Record<string, unknown> {
  let result: Record<string, unknown> = { ...backend };
  if (config.serverInfo) {
    result.serverInfo = config.serverInfo;
    result = restampServerInfo(result, config.serverInfo);
  }
  const caps: Record<string, unknown> = { ...((backend.capabilities as Record<string, unknown> | undefined) ?? {}) };
  delete caps.tasks;
  if (supportedEvents) {
    const extensions = { ...((caps.extensions as Record<string, unknown> | undefined) ?? {}) };
    extensions[INTERCEPTORS_EXTENSION_ID] = { supportedEvents: supportedEvents.length > 0 ? supportedEvents : ['*'] };
    caps.extensions = extensions;
  }
  result.capabilities = caps;
  return result;
}

export function sessionRecord(s: {
  id: string;
  gateway: string;
  transport: 'stdio' | 'http';
  principal: string | undefined;
  protocolVersion: string | undefined;
  clientInfo: unknown;
}): SessionRecord {
  const record: SessionRecord = {
    id: s.id,
    gateway: s.gateway,
    startedAt: new Date().toISOString(),
    transport: s.transport,
    principal: s.principal ? { type: 'user', id: s.principal } : { type: 'anonymous' },
  };
  if (s.clientInfo && typeof s.clientInfo === 'object') record.clientInfo = s.clientInfo as SessionRecord['clientInfo'];
  if (s.protocolVersion) record.protocolVersion = s.protocolVersion;
  return record;
}

const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';

/**
 * 2026-07-28 servers stamp their identity into every result's `_meta`; with a configured serverInfo the
 * gateway is that identity. Results without the stamp are returned as the same object.
 */
export function restampServerInfo(result: Record<string, unknown>, serverInfo: Record<string, unknown>): Record<string, unknown> {
  const meta = result._meta as Record<string, unknown> | undefined;
  if (!meta || !(SERVER_INFO_META_KEY in meta)) return result;
  return { ...result, _meta: { ...meta, [SERVER_INFO_META_KEY]: serverInfo } };
}
