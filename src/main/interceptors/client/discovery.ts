// Drains `interceptors/list` pages (A13) and validates every descriptor on its own, so that one
// malformed descriptor is skipped with a reason instead of failing the whole server.
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { ErrorCode, METHOD_LIST } from '../../../shared/protocol/constants';
import { ListResultSchema } from '../../../shared/protocol/schemas';
import type { DiscoveryResult } from '../server-handle';
import { checkDescriptors } from './result-check';

export interface DrainOptions {
  server: string;
  event?: string;
  signal?: AbortSignal;
  pageTimeoutMs: number;
  maxPages: number;
}

export async function drainList(client: Client, o: DrainOptions): Promise<DiscoveryResult> {
  const result: DiscoveryResult = { interceptors: [], skipped: [] };
  const seenNames = new Set<string>();
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page >= o.maxPages) {
      throw new Error(`server '${o.server}': interceptors/list returned more than ${o.maxPages} pages; giving up`);
    }
    const params: Record<string, unknown> = {};
    if (o.event !== undefined) params.event = o.event;
    if (cursor !== undefined) params.cursor = cursor;
    let raw: unknown;
    try {
      raw = await client.request({ method: METHOD_LIST, params }, z.unknown(), { timeout: o.pageTimeoutMs, signal: o.signal });
    } catch (err) {
      throw new Error(describeListFailure(o.server, err, o.pageTimeoutMs));
    }
    const parsed = ListResultSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`server '${o.server}': interceptors/list returned a malformed result: ${issue?.path.join('.') || 'result'}: ${issue?.message}`);
    }
    const { accepted, skipped } = checkDescriptors(parsed.data.interceptors, seenNames);
    result.interceptors.push(...accepted);
    result.skipped.push(...skipped);
    cursor = parsed.data.nextCursor;
    if (cursor === undefined || cursor === '') return result;
    if (seenCursors.has(cursor)) {
      throw new Error(`server '${o.server}': interceptors/list repeated cursor ${JSON.stringify(cursor)}; its pagination loops`);
    }
    seenCursors.add(cursor);
  }
}

function describeListFailure(server: string, err: unknown, timeoutMs: number): string {
  if (ProtocolError.isInstance(err)) {
    if (err.code === ErrorCode.MethodNotFound) {
      return `server '${server}' does not implement interceptors/list (JSON-RPC -32601); it is not an interceptor server`;
    }
    return `server '${server}': interceptors/list failed (JSON-RPC ${err.code}): ${err.message}`;
  }
  if (SdkError.isInstance(err) && err.code === SdkErrorCode.RequestTimeout) {
    return `server '${server}': interceptors/list did not answer within ${timeoutMs}ms`;
  }
  return `server '${server}': interceptors/list failed: ${(err as Error)?.message ?? String(err)}`;
}
