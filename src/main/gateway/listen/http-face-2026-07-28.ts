// The HTTP face a v2 SDK server shows 2026-07-28 clients, for backends that have none (stdio): the entry
// checks it runs before dispatch (the SDK's classifier, then SEP-2243's standard-header cross-check) and
// the HTTP status it gives a JSON-RPC error. An HTTP backend answers all of this itself and the gateway
// relays its answer as given; a stdio backend only speaks JSON-RPC, so without this face a client would
// get HTTP 200 where a direct v2 server gives 400 or 404.
import type { IncomingMessage } from 'node:http';
import { classifyInboundRequest, UnsupportedProtocolVersionError } from '@modelcontextprotocol/server';
import { errorResponse, type JsonRpcError, type JsonRpcId } from '../wire/jsonrpc';

const HEADER_MISMATCH = -32020;
/** The 2026-era revisions the bundled SDK serves (the SDK keeps its own list internal). */
const REVISIONS_20260728 = ['2026-07-28'];
/** The SDK's ladder table: the statuses its HTTP entry gives these codes (everything else is in-band, 200). */
const LADDER_STATUS: Record<number, number> = { [-32700]: 400, [-32600]: 400, [-32601]: 404, [-32022]: 400, [-32021]: 400, [HEADER_MISMATCH]: 400 };
/** Which body field the Mcp-Name header mirrors (SEP-2243, and SEP-2663 for tasks). */
const NAME_SOURCE: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};
const BASE64_PREFIX = '=?base64?';
const BASE64_SUFFIX = '?=';

export interface Rejection {
  status: number;
  body: JsonRpcError;
}

/** The HTTP status a v2 server answers a backend's JSON-RPC error with. */
export function statusForError(code: number | undefined): number {
  return code !== undefined ? (LADDER_STATUS[code] ?? 200) : 200;
}

/** The rejection a v2 server's HTTP entry gives this 2026-07-28 POST before any handler runs, if any. */
export function entryRejection(req: IncomingMessage, body: unknown): Rejection | undefined {
  const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
  const versionHeader = header('mcp-protocol-version');
  const methodHeader = header('mcp-method');
  const nameHeader = header('mcp-name');
  const id = ((body as { id?: JsonRpcId } | null)?.id ?? null) as JsonRpcId | null;
  const outcome = classifyInboundRequest({
    httpMethod: req.method ?? 'POST',
    protocolVersionHeader: versionHeader,
    mcpMethodHeader: methodHeader,
    mcpNameHeader: nameHeader,
    body,
  });
  if (outcome.kind === 'reject') return { status: outcome.httpStatus, body: errorResponse(id, outcome.code, outcome.message, outcome.data) };
  if (outcome.kind !== 'modern' || outcome.messageKind !== 'request') return undefined;
  const mismatch = (headerValue: string, what: string): Rejection => ({
    status: 400,
    body: errorResponse(id, HEADER_MISMATCH, `Bad Request: the request headers and body disagree: ${what}`, { mismatch: { header: headerValue, body: what } }),
  });
  const revision = outcome.classification.revision;
  if (revision === undefined || !REVISIONS_20260728.includes(revision)) {
    const error = new UnsupportedProtocolVersionError({ supported: REVISIONS_20260728, requested: revision ?? 'unknown' });
    return { status: 400, body: errorResponse(id, error.code, error.message, error.data) };
  }
  const method = outcome.message.method;
  if (versionHeader === undefined)
    return mismatch('(missing)', 'the body carries a 2026-07-28 per-request envelope but the required MCP-Protocol-Version header is absent');
  if (methodHeader === undefined) return mismatch('(missing)', `the body names method ${method} but the required Mcp-Method header is absent`);
  const field = Object.hasOwn(NAME_SOURCE, method) ? NAME_SOURCE[method]! : undefined;
  if (field === undefined) return undefined;
  const raw = (outcome.message.params as Record<string, unknown> | undefined)?.[field];
  const bodyValue = typeof raw === 'string' ? raw : undefined;
  if (nameHeader === undefined)
    return bodyValue === undefined
      ? undefined
      : mismatch('(missing)', `the body carries params.${field}="${bodyValue}" but the required Mcp-Name header is absent`);
  const trimmed = nameHeader.replace(/^[ \t]+|[ \t]+$/g, '');
  const decoded = decodeParam(trimmed);
  if (decoded === undefined) return mismatch(trimmed, 'the Mcp-Name header carries an invalid Base64 sentinel value');
  if (bodyValue !== undefined && decoded !== bodyValue)
    return mismatch(trimmed, `the body carries params.${field}="${bodyValue}" but the Mcp-Name header names "${decoded}"`);
  return undefined;
}

/** `=?base64?…?=` carries UTF-8 as canonical Base64; anything else is the value itself. */
function decodeParam(value: string): string | undefined {
  if (!(value.startsWith(BASE64_PREFIX) && value.endsWith(BASE64_SUFFIX))) return value;
  const b64 = value.slice(BASE64_PREFIX.length, value.length - BASE64_SUFFIX.length);
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) return undefined;
  const text = Buffer.from(b64, 'base64').toString('utf8');
  return Buffer.from(text, 'utf8').toString('base64') === b64 ? text : undefined;
}
