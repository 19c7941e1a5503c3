// What the client gets when the chain blocks (A9): a blocked tools/call is a CallToolResult with isError
// (as the C# SDK does) unless the config asks for a JSON-RPC error; every other method gets a JSON-RPC
// error -32602 naming the interceptor, the phase and the reason.
import type { BlockInfo } from '../../../shared/trace/types';
import { errorResponse, resultResponse, RpcCode, type JsonRpcId, type JsonRpcResponse } from '../wire/jsonrpc';

export function blockMessages(block: BlockInfo): string {
  return block.messages.length > 0 ? block.messages.join('; ') : block.reason;
}

/** `Blocked by <server>/<interceptor> (<phase>): <messages>` */
export function blockText(block: BlockInfo): string {
  // A fail-closed discovery failure (A8) is the server's, not one interceptor's: say so.
  if (block.interceptor === '(discovery)') return `Blocked by ${block.server} (${block.phase}): ${block.reason}`;
  return `Blocked by ${block.server}/${block.interceptor} (${block.phase}): ${blockMessages(block)}`;
}

export function blockErrorData(block: BlockInfo): Record<string, unknown> {
  return { interceptor: block.interceptor, server: block.server, event: block.event, phase: block.phase, messages: block.messages };
}

export function blockedResponse(id: JsonRpcId, method: string, block: BlockInfo, blockedToolCall: 'result' | 'error'): JsonRpcResponse {
  if (method === 'tools/call' && blockedToolCall === 'result') {
    return resultResponse(id, { content: [{ type: 'text', text: blockText(block) }], isError: true });
  }
  return errorResponse(id, RpcCode.InvalidParams, blockText(block), blockErrorData(block));
}

/**
 * A result the gateway makes itself (a blocked call, an interceptor-protocol answer) in a 2026-07-28
 * session: that revision requires `resultType` on every result, and a v2 client pinned to it rejects one
 * without (the backend's own results carry it already).
 */
export function asEraResult<T extends JsonRpcResponse>(response: T, protocolVersion: string | undefined): T {
  if (!protocolVersion || protocolVersion < '2026-07-28' || !('result' in response)) return response;
  if (response.result.resultType !== undefined) return response;
  return { ...response, result: { ...response.result, resultType: 'complete' } };
}
