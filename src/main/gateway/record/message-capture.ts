// Message capture for the Messages view: every JSON-RPC message a gateway receives or sends, on each
// side (client, backend, interceptor servers), handed to the recorder as a MessageRecord. The hooks in
// the session, the backend link and the interceptor client call these taps; when capture is off (no
// recorder, `recording: false` or `captureMessages: false`) there is no tap and the hooks cost a
// property read. A tap only labels and forwards: the recorder encodes (one JSON.stringify) and queues.
//
// Linking a message to its execution: the tap sees a client's request before the session creates the
// exchange for it, so the tap picks the execution id and the session adopts it (adopt()). Every later
// message with that JSON-RPC id on either side (the forwarded request, the backend's answer, the answer to
// the client), its progress notifications (by token) and its cancellation then carry the same id.
import type { BackendEntry } from '../../../shared/config/schema';
import type { MessageDirection, MessageKind, MessageRecord, MessageSide } from '../../../shared/trace/messages';
import { timeOrderedUuid } from '../../ids/time-ordered-uuid';

type Json = Record<string, unknown>;
type Origin = 'c' | 'b';

/** Requests remembered per session until their answer passes; bounded so a peer that never answers cannot grow it. */
const MAX_OPEN = 8192;

export class MessageCapture {
  constructor(
    readonly gateway: string,
    private readonly sink: (record: MessageRecord) => void,
  ) {}

  session(sessionId: string): SessionTap {
    return new SessionTap(this, sessionId);
  }

  interceptor(server: string): InterceptorTap {
    return new InterceptorTap(this, server);
  }

  /**
   * The record is built with one fixed shape and optional keys set only when present: every message of a
   * busy gateway passes here (about a dozen per tools/call with three interceptors), and spreading the
   * fields then deleting the undefined ones cost a dictionary-mode object per message.
   */
  emit(fields: Omit<MessageRecord, 'id' | 'at' | 'gateway'>): void {
    const at = Date.now();
    // Time-ordered: the uuid index (and the execution index, see SessionTap) grows at its end.
    const record: MessageRecord = {
      id: timeOrderedUuid(at),
      gateway: this.gateway,
      at,
      side: fields.side,
      direction: fields.direction,
      kind: fields.kind,
      message: fields.message,
    };
    if (fields.sessionId !== undefined) record.sessionId = fields.sessionId;
    if (fields.peer !== undefined) record.peer = fields.peer;
    if (fields.method !== undefined) record.method = fields.method;
    if (fields.jsonrpcId !== undefined) record.jsonrpcId = fields.jsonrpcId;
    if (fields.executionId !== undefined) record.executionId = fields.executionId;
    if (fields.text !== undefined) record.text = fields.text;
    try {
      this.sink(record);
    } catch {
      // Capture must never break traffic: the recorder counts its own failures.
    }
  }
}

/** What kind of JSON-RPC message this is, and its method and id. */
export function describeMessage(message: unknown): { kind: Exclude<MessageKind, 'connect-error'>; method?: string; id?: string | number } {
  const m = (message ?? {}) as Json;
  const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
  // Objects made whole (no spreads): every captured message passes here.
  if (typeof m.method === 'string') return id === undefined ? { kind: 'notification', method: m.method } : { kind: 'request', method: m.method, id };
  const kind = 'error' in m ? 'error' : 'response';
  return id === undefined ? { kind } : { kind, id };
}

/** One client session's taps: the client side and the backend side. */
export class SessionTap {
  /** Open requests by origin and id: the execution they belong to and their method. */
  private readonly open = new Map<string, { executionId: string; method: string; token?: unknown }>();
  private readonly tokens = new Map<unknown, string>();

  constructor(
    private readonly capture: MessageCapture,
    readonly sessionId: string,
  ) {}

  // `text`: the message's JSON text as read or written, when the transport had it (kept as it is).
  fromClient(message: unknown, text?: string): void {
    this.record('client', 'in', message, 'c', text);
  }

  toClient(message: unknown, text?: string): void {
    this.record('client', 'out', message, 'b', text);
  }

  fromBackend(message: unknown, text?: string): void {
    this.record('backend', 'in', message, 'b', text);
  }

  toBackend(message: unknown, text?: string): void {
    this.record('backend', 'out', message, 'c', text);
  }

  /** The backend could not be connected: a synthetic entry carrying the error and what was tried. */
  connectFailed(backend: BackendEntry, error: string): void {
    const target = backend.transport === 'stdio' ? [backend.command, ...backend.arguments].join(' ') : backend.endpoint;
    this.capture.emit({
      sessionId: this.sessionId,
      side: 'backend',
      direction: 'out',
      peer: backend.name,
      kind: 'connect-error',
      message: { error, backend: backend.name, transport: backend.transport, target },
    });
  }

  /** The session made an exchange for a request the tap saw: it takes the execution id the tap gave its messages. */
  adopt(ex: { id: unknown; traceId: string; direction: 'client' | 'backend' }): void {
    const open = this.open.get(key(ex.direction === 'client' ? 'c' : 'b', ex.id));
    if (open) ex.traceId = open.executionId;
  }

  /**
   * `requester`: who sends requests on this side in this direction ('c': the client's requests travel
   * client→gateway→backend; 'b': the backend's requests travel backend→gateway→client).
   */
  private record(side: MessageSide, direction: MessageDirection, message: unknown, requester: Origin, text: string | undefined): void {
    const d = describeMessage(message);
    let executionId: string | undefined;
    let method = d.method;
    if (d.kind === 'request') {
      const k = key(requester, d.id);
      let open = this.open.get(k);
      // The first hop of a request opens it (the client's arrives first, the backend's likewise).
      if (!open && ((requester === 'c' && side === 'client') || (requester === 'b' && side === 'backend'))) {
        // Time-ordered like the message ids: executions and messages index this id as it is written.
        open = { executionId: timeOrderedUuid(), method: d.method! };
        const token = ((message as Json).params as Json | undefined)?._meta as Json | undefined;
        if (token?.progressToken !== undefined) {
          open.token = token.progressToken;
          this.tokens.set(token.progressToken, open.executionId);
        }
        this.open.set(k, open);
        if (this.open.size > MAX_OPEN) this.forget(this.open.keys().next().value!);
      }
      executionId = open?.executionId;
    } else if (d.kind === 'response' || d.kind === 'error') {
      // Answers travel the other way: the client's requests are answered backend→gateway→client.
      const origin: Origin = requester === 'c' ? 'b' : 'c';
      const k = key(origin, d.id);
      const open = this.open.get(k);
      executionId = open?.executionId;
      method = open?.method;
      // The last hop of an answer closes the request.
      if (open && ((origin === 'c' && side === 'client') || (origin === 'b' && side === 'backend'))) this.forget(k);
    } else {
      executionId = this.notificationLink(d.method!, message as Json, requester);
    }
    // Undefined fields are left out by emit().
    this.capture.emit({ sessionId: this.sessionId, side, direction, kind: d.kind, method, jsonrpcId: d.id, executionId, message, text });
  }

  /** Progress by its token; a cancellation by the request it cancels (sent by the same peer that asked). */
  private notificationLink(method: string, message: Json, requester: Origin): string | undefined {
    const params = message.params as Json | undefined;
    if (method === 'notifications/progress') return this.tokens.get(params?.progressToken);
    if (method === 'notifications/cancelled') return this.open.get(key(requester, params?.requestId))?.executionId;
    return undefined;
  }

  private forget(k: string): void {
    const open = this.open.get(k);
    this.open.delete(k);
    if (open?.token !== undefined) this.tokens.delete(open.token);
  }
}

/** The gateway's connection to one interceptor server (shared by every session that runs its interceptors). */
export class InterceptorTap {
  /** The gateway's open requests by JSON-RPC id: their method, and the session and execution they serve. */
  private readonly open = new Map<string | number, { method: string; sessionId?: string; executionId?: string }>();

  constructor(
    private readonly capture: MessageCapture,
    readonly server: string,
  ) {}

  message(direction: MessageDirection, message: unknown, text?: string): void {
    const d = describeMessage(message);
    let method = d.method;
    let sessionId: string | undefined;
    let executionId: string | undefined;
    if (d.kind === 'request' && direction === 'out') {
      // interceptor/invoke carries the session and the execution (traceId) in its context.
      const context = ((message as Json).params as Json | undefined)?.context as Json | undefined;
      if (typeof context?.sessionId === 'string') sessionId = context.sessionId;
      if (typeof context?.traceId === 'string') executionId = context.traceId;
      this.open.set(d.id!, { method: d.method!, sessionId, executionId });
      if (this.open.size > MAX_OPEN) this.open.delete(this.open.keys().next().value!);
    } else if ((d.kind === 'response' || d.kind === 'error') && direction === 'in' && d.id !== undefined) {
      const link = this.open.get(d.id);
      if (link) {
        this.open.delete(d.id);
        ({ method, sessionId, executionId } = link);
      }
    }
    this.capture.emit({ side: 'interceptor', direction, peer: this.server, kind: d.kind, sessionId, executionId, method, jsonrpcId: d.id, message, text });
  }

  /** A new connection numbers its requests afresh: answers to the old one's never come. */
  reset(): void {
    this.open.clear();
  }

  connectFailed(error: string): void {
    this.capture.emit({ side: 'interceptor', direction: 'out', peer: this.server, kind: 'connect-error', message: { error } });
  }
}

function key(origin: Origin, id: unknown): string {
  return `${origin}${typeof id === 'number' ? 'n' : 's'}${String(id)}`;
}
