// 2026-07-28 requests to an HTTP backend: each one is its own POST carrying the client's own protocol
// headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*), and the backend's answer comes back
// as it was given: its HTTP status, its JSON-RPC error code and data, JSON or an SSE stream. The SDK's
// client transport would turn a 4xx into a transport error (status, code and data lost) and speak the
// gateway's own negotiated version instead of the client's; in this era there is no session to keep, so a
// refused request is just an answer, never a reason to drop or re-initialize the backend link.
import type { BackendEntry } from '../../../shared/config/schema';
import { JsonValueSplitter, MessageTooLargeError } from '../wire/json-values';
import { errorResponse, isNotification, isRequest, RpcCode, type JsonRpcId, type JsonRpcMessage } from '../wire/jsonrpc';

/** What the HTTP listener tells the backend about the 2026-07-28 requests it relays, and learns back. */
export interface Relay20260728 {
  /** The upstream headers for this request when it is a 2026-07-28 client's (else undefined: the SDK path). */
  headersFor(message: JsonRpcMessage): Record<string, string> | undefined;
  /** The backend's HTTP answer began: its status, whether it streams, and whether its JSON-RPC id was null. */
  onHead(id: JsonRpcId, head: { status: number; sse: boolean; nullId: boolean }): void;
}

interface Sink {
  onmessage?: (message: JsonRpcMessage, related?: JsonRpcId) => void;
  describe(): string;
  readonly entry: BackendEntry;
}

const inFlight = new WeakMap<Sink, Map<JsonRpcId, AbortController>>();

/** A 2026 client cancels by closing its stream: the gateway closes the upstream POST the same way. */
export function abort20260728(backend: Sink, message: JsonRpcMessage): boolean {
  if (!isNotification(message) || message.method !== 'notifications/cancelled') return false;
  const id = message.params?.requestId as JsonRpcId | undefined;
  const controller = id !== undefined ? inFlight.get(backend)?.get(id) : undefined;
  if (!controller) return false;
  controller.abort();
  return true;
}

export async function post20260728(
  backend: Sink,
  entry: Extract<BackendEntry, { transport: 'http' }>,
  message: JsonRpcMessage,
  headers: Record<string, string>,
  onStreamEnd?: () => void,
  maxMessageBytes = Infinity,
): Promise<void> {
  const id = isRequest(message) ? message.id : undefined;
  const controller = new AbortController();
  let flights = inFlight.get(backend);
  if (!flights) inFlight.set(backend, (flights = new Map()));
  if (id !== undefined) flights.set(id, controller);
  const deliver = (m: JsonRpcMessage) => backend.onmessage?.(m, id);
  let response: Response;
  try {
    response = await fetch(entry.endpoint, {
      method: 'POST',
      headers: { ...entry.headers, ...headers },
      body: JSON.stringify(message),
      signal: controller.signal,
    });
  } catch (err) {
    if (id !== undefined) flights.delete(id);
    if (id !== undefined && !controller.signal.aborted) {
      deliver(errorResponse(id, RpcCode.BackendUnavailable, `backend "${entry.name}" (${backend.describe()}) could not be reached: ${(err as Error).message}`));
    }
    return;
  }
  const relay = (backend as { rev20260728?: Relay20260728 }).rev20260728;
  const head = (nullId: boolean) => id !== undefined && relay?.onHead(id, { status: response.status, sse: isSse(response), nullId });
  head(false);
  // The rest arrives in the background: send() resolves once the backend took the request.
  void readAnswer(response, id, deliver, controller.signal, () => head(true), maxMessageBytes)
    .catch((err: unknown) => {
      // One message past the cap: the stream is dropped (the backend is told by the closed connection) and
      // the request gets the error, as a stdio backend's oversized line does.
      if (!(err instanceof MessageTooLargeError)) return;
      controller.abort();
      if (id !== undefined) deliver(errorResponse(id, RpcCode.InternalError, `backend "${entry.name}": ${err.message}`));
    })
    .finally(() => {
      if (id !== undefined) flights.delete(id);
      onStreamEnd?.();
    });
}

function isSse(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('text/event-stream');
}

async function readAnswer(
  response: Response,
  id: JsonRpcId | undefined,
  deliver: (m: JsonRpcMessage) => void,
  signal: AbortSignal,
  nullId: () => void,
  maxChars: number,
): Promise<void> {
  if (id === undefined) return void (await response.body?.cancel());
  if (isSse(response) && response.body) {
    for await (const data of sseData(response.body, signal, maxChars)) {
      const parsed = parse(data);
      if (parsed) deliver(parsed);
    }
    return;
  }
  // JSON: one value, or several (newline-delimited JSON-RPC streamed in a chunked body), each relayed as
  // it completes; an endless body (a subscriptions/listen stream) is read until the client or backend ends it.
  const splitter = new JsonValueSplitter(maxChars);
  let answered = false;
  let start = ''; // the body's first characters, for the error when it holds no answer
  const take = (text: string) => {
    const parsed = parse(text);
    if (!parsed) return;
    if ('id' in parsed && !('method' in parsed)) {
      answered = true;
      // The backend may answer a request it refused with `id: null` (it could not read one): the client must
      // see that null too, but the gateway routes by id, so the null is restored at the listener.
      if (parsed.id === null || parsed.id === undefined) {
        nullId();
        return deliver({ ...(parsed as object), id } as JsonRpcMessage);
      }
    }
    deliver(parsed);
  };
  if (response.body) {
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    try {
      while (!signal.aborted) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        if (start.length < 300) start += text.slice(0, 300 - start.length);
        for (const value of splitter.push(text)) take(value);
      }
      for (const text of splitter.push(decoder.decode())) take(text);
    } finally {
      reader.releaseLock();
    }
  }
  if (answered || signal.aborted || response.status === 202) return;
  const body = start.trim();
  deliver(errorResponse(id, RpcCode.BackendUnavailable, `backend answered HTTP ${response.status} without a JSON-RPC response${body ? `: ${body}` : ''}`));
}

function parse(text: string): JsonRpcMessage | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonRpcMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** The `data` of each SSE event (multi-line data joined), as the stream delivers them. */
async function* sseData(body: ReadableStream<Uint8Array>, signal: AbortSignal, maxChars: number): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let dataChars = 0; // of the event being read: an event past the cap is not read further
  const reader = body.getReader();
  try {
    while (!signal.aborted) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        if (line === '') {
          if (data.length > 0) yield data.join('\n');
          data = [];
          dataChars = 0;
        } else if (line.startsWith('data:')) {
          data.push(line.slice(5).replace(/^ /, ''));
          dataChars += line.length;
        }
      }
      if (dataChars + buffer.length > maxChars) throw new MessageTooLargeError(maxChars);
    }
  } finally {
    reader.releaseLock();
  }
}
