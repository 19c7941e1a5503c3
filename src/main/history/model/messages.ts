// The Messages view's filter and answers, the bounds both engines keep, and the health-ping rule (one SQL
// condition both engines run on the row `m`).
import type { MessageDirection, MessageKind, MessageSide } from '../../../shared/trace/messages';

export interface MessageFilter {
  gateway: string;
  /** A session id; null: the gateway's own messages outside any session; undefined: all of them. */
  session?: string | null;
  side?: MessageSide;
  direction?: MessageDirection;
  kind?: MessageKind;
  method?: string;
  /** Methods left out (the method filter's `-ping`); messages without a method stay. */
  excludeMethods?: string[];
  /** Leave out the gateway's own health pings (HEALTH_PING below); the API asks for this unless told to show them. */
  hideHealthPings?: boolean;
  /** Text the message contains (case-insensitive for ASCII), e.g. a tool name or an argument value. */
  search?: string;
  executionId?: string;
}

export interface MessageSummary {
  id: string;
  /** Keyset position (pass back as the cursor). */
  key: string;
  at: string;
  sessionId?: string;
  side: MessageSide;
  direction: MessageDirection;
  peer?: string;
  kind: MessageKind;
  method?: string;
  jsonrpcId?: string | number;
  size: number;
  truncated: boolean;
  /** Set only when the execution is in the store (an initialize that worked is not recorded as one). */
  executionId?: string;
  /** The start of the message text, for the list. */
  preview: string;
}

export interface MessageDetail extends MessageSummary {
  gateway: string;
  /** The message as recorded (JSON text; cut at 64 Ki characters when `truncated`). */
  body: string;
}

export interface MessageSessionSummary {
  /** null: the gateway's own messages (interceptor discovery, connects) outside any client session. */
  sessionId: string | null;
  /** When its newest message was recorded. */
  lastAt: string;
  startedAt?: string;
  clientName?: string;
  transport?: string;
  principal?: string;
}

export const PREVIEW_CHARS = 160;

export const MAX_PAGE = 1000;

export const MAX_SESSIONS = 500;

/** The most methods the suggestions list. */
export const MAX_METHODS = 500;

/** How the Messages view lists a gateway's sessions (history-store.ts listMessageSessions). */
export interface SessionListOptions {
  /** Date the gateway's own entry without its health pings (and leave it out when it has nothing else). */
  hideHealthPings?: boolean;
}

/**
 * The gateway's own messages read at most, newest first, to date its entry without health pings: the
 * session list is read again each time messages arrive, and this walk has no index to answer it (~5 ms
 * for 10,000 rows here). With five interceptor servers that is about four hours of pings.
 */
export const OWN_ACTIVITY_SCAN = 10_000;

/** Rows one call reads at most to check what no index answers (side, direction, kind, text…). */
export const SCAN_LIMIT = 50_000;

/**
 * A health ping is the gateway's own `ping` to a server it connects to (interceptors/client/health.ts pings
 * each interceptor server every 15 s), and the server's answer. The rule, in SQL both engines run on the
 * row `m`: method `ping`, not on the client side, outbound as a request or inbound as its answer (the
 * gateway asked), and linked to no execution. A client's own `ping` is never one: on the client side it
 * is excluded by side, and forwarded to the backend it carries the execution the client's request opened
 * (message-capture.ts links every hop of a client's request), as does a backend's ping to the client. A
 * server's ping to the gateway (inbound request, outbound answer) is the server's, not the gateway's.
 */
export const HEALTH_PING = `(m.method = 'ping' AND m.side <> 'client' AND m.execution_uuid IS NULL
  AND ((m.kind = 'request' AND m.direction = 'out') OR (m.kind IN ('response', 'error') AND m.direction = 'in')))`;

/** Whether a filter could match a health ping at all (a session's, an execution's or another method's messages cannot). */
export function healthPingsPossible(filter: MessageFilter): boolean {
  return filter.session == null && filter.executionId === undefined && (filter.method === undefined || filter.method === 'ping') && filter.side !== 'client';
}

/** The methods a filter leaves out, without blanks or repeats. */
export function excludedMethods(filter: MessageFilter): string[] {
  return [...new Set((filter.excludeMethods ?? []).filter((m) => m !== ''))];
}
