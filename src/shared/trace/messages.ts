// One JSON-RPC message as a gateway saw or sent it, on one of its three sides, for the Messages view
// (MCP Inspector's protocol pane, but for the whole path). The gateway hands these to its recorder;
// the store keeps the message text up to MESSAGE_BODY_LIMIT and marks the rest as cut.

/** Which connection: the client's, the backend's, or one interceptor server's (`peer` names it). */
export type MessageSide = 'client' | 'backend' | 'interceptor';
/** Seen from the gateway: `in` was received by it, `out` was sent by it. */
export type MessageDirection = 'in' | 'out';
/** `connect-error`: a synthetic entry for a connect that failed (there was no message to record). */
export type MessageKind = 'request' | 'response' | 'error' | 'notification' | 'connect-error';

export const MESSAGE_SIDES: readonly MessageSide[] = ['client', 'backend', 'interceptor'];
export const MESSAGE_KINDS: readonly MessageKind[] = ['request', 'response', 'error', 'notification', 'connect-error'];

/** Message text kept per message, in UTF-16 code units (64 Ki); longer ones are stored cut and marked. */
export const MESSAGE_BODY_LIMIT = 64 * 1024;

export interface MessageRecord {
  /** UUID: replaying a crash journal writes a message once. */
  id: string;
  gateway: string;
  /** The client session it belongs to; absent for the gateway's own traffic (interceptor discovery). */
  sessionId?: string;
  /** Epoch milliseconds when the gateway received or sent it. */
  at: number;
  side: MessageSide;
  direction: MessageDirection;
  /** The interceptor server's (or backend's) configured name. */
  peer?: string;
  kind: MessageKind;
  /** The request's method, also for its response (when the gateway knows which request it answers). */
  method?: string;
  jsonrpcId?: string | number;
  /** The execution (Traffic) this message belongs to, when there is one. */
  executionId?: string;
  /** The message itself (a JSON-RPC object), or for `connect-error` `{error}`. Encoded by the recorder. */
  message: unknown;
  /**
   * The message's JSON text as the gateway read or wrote it, when the transport had it at hand: the recorder
   * stores it as it is instead of serializing `message` again ([path-speed]). A redactor drops it.
   */
  text?: string;
}

/** What a recorder that keeps messages implements (the SQLite store does; others may ignore them). */
export interface MessageSink {
  recordMessage(message: MessageRecord): void;
}
