// Raw JSON-RPC 2.0 messages as the gateway forwards them. The gateway never re-types results through the
// MCP SDK's schemas: those drop unknown fields, and a transparent proxy must keep them.
export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}
export interface JsonRpcResult {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: Record<string, unknown>;
}
export interface JsonRpcError {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}
export type JsonRpcResponse = JsonRpcResult | JsonRpcError;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Implementation-defined server error: the backend is unavailable or closed the connection. */
  BackendUnavailable: -32000,
  /** The backend did not answer within its deadline (the MCP SDK's RequestTimeout). */
  BackendTimeout: -32001,
  /** Too many requests of one session wait at once. */
  TooManyPending: -32005,
  /** The JSON-RPC message exceeded maxMessageBytes. */
  MessageTooLarge: -32600,
} as const;

export function isRequest(m: JsonRpcMessage): m is JsonRpcRequest {
  return 'method' in m && 'id' in m && m.id !== undefined && m.id !== null;
}
export function isNotification(m: JsonRpcMessage): m is JsonRpcNotification {
  return 'method' in m && !('id' in m && m.id !== undefined && m.id !== null);
}
export function isErrorResponse(m: JsonRpcResponse): m is JsonRpcError {
  return 'error' in m;
}

export function errorResponse(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcError {
  const error: JsonRpcErrorObject = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: '2.0', id, error };
}

export function resultResponse(id: JsonRpcId, result: Record<string, unknown>): JsonRpcResult {
  return { jsonrpc: '2.0', id, result };
}

export type Validity = { ok: true; message: JsonRpcMessage } | { ok: false; id: JsonRpcId | null; reason: string };

/**
 * Structural check of a parsed value: cheap enough for the hot path (no schema library), strict enough that
 * what the gateway forwards is well-formed JSON-RPC.
 */
export function checkMessage(value: unknown): Validity {
  if (Array.isArray(value)) return { ok: false, id: null, reason: 'JSON-RPC batches are not supported (removed in MCP 2025-06-18)' };
  if (!value || typeof value !== 'object') return { ok: false, id: null, reason: 'expected a JSON-RPC object' };
  const v = value as Record<string, unknown>;
  const id = typeof v.id === 'string' || typeof v.id === 'number' ? v.id : null;
  if (v.jsonrpc !== '2.0') return { ok: false, id, reason: 'missing "jsonrpc": "2.0"' };
  if ('method' in v) {
    if (typeof v.method !== 'string' || v.method === '') return { ok: false, id, reason: '"method" must be a non-empty string' };
    if (v.params !== undefined && (typeof v.params !== 'object' || v.params === null || Array.isArray(v.params))) {
      return { ok: false, id, reason: '"params" must be an object' };
    }
    if ('id' in v && v.id !== undefined && id === null) return { ok: false, id: null, reason: '"id" must be a string or a number' };
    return { ok: true, message: v as unknown as JsonRpcMessage };
  }
  if ('result' in v || 'error' in v) {
    if (id === null && !('error' in v)) return { ok: false, id: null, reason: 'a response needs an "id"' };
    if ('result' in v && (typeof v.result !== 'object' || v.result === null)) {
      return { ok: false, id, reason: '"result" must be an object' };
    }
    if ('error' in v) {
      const e = v.error as Record<string, unknown> | null;
      if (!e || typeof e !== 'object' || typeof e.code !== 'number' || typeof e.message !== 'string') {
        return { ok: false, id, reason: '"error" must be {code: number, message: string}' };
      }
    }
    return { ok: true, message: v as unknown as JsonRpcMessage };
  }
  return { ok: false, id, reason: 'neither a request ("method") nor a response ("result"/"error")' };
}
