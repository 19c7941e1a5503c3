// What a client session needs from whoever runs it (the gateway through its stdio or HTTP listener, or a
// replay): the config and interception of the moment, a backend factory and where records go, and the sink
// it writes its client's messages to. Kept apart from the session so that its parts (session-*.ts) depend
// on this contract, not on the session class.
import type { GatewayConfig } from '../../../shared/config/schema';
import type { ExecutionOutcome, ExecutionRecord, SessionRecord } from '../../../shared/trace/execution';
import type { Backend } from '../backend/backend';
import type { GatewayBreakpoints } from '../breakpoints/breakpoint-set';
import type { Interception } from '../intercept';
import type { JsonRpcId, JsonRpcMessage } from '../wire/jsonrpc';
import type { SessionTap } from '../record/message-capture';

/** Where the session writes to its client; `relatedRequestId` routes HTTP messages onto a request's stream. */
export interface ClientSink {
  /** May return the text written (a stdio line), which message capture then keeps instead of serializing again. */
  send(message: JsonRpcMessage, relatedRequestId?: JsonRpcId): string | void;
  /** Closes the response stream of a request that is still running (the client resumes it: SEP-1699). */
  closeStream?(relatedRequestId: JsonRpcId): void;
}

export interface SessionHost {
  readonly config: GatewayConfig;
  readonly gatewayName: string;
  readonly interception: Interception;
  /** Breakpoints owned by the gateway process (absent: calls never pause). */
  readonly breakpoints?: GatewayBreakpoints;
  createBackend(): Backend;
  log(line: string): void;
  onSession(record: SessionRecord): void;
  onExecution(record: ExecutionRecord): void;
  /** Optional fast path: when nobody takes records, the session only reports the outcome and duration. */
  wantsRecords?(): boolean;
  count?(outcome: ExecutionOutcome, durationMs: number): void;
  /** Set only when traces are exported: the params to forward, carrying the trace context in `_meta`. */
  readonly propagateTrace?: ((executionId: string, received: unknown, forwarded: Record<string, unknown> | undefined) => Record<string, unknown>) | undefined;
  /** `beforeClient`: the backend died before the client sent anything (a start failure in disguise). */
  onBackendEvent(event: { type: 'backend-crashed' | 'backend-reconnected'; sessionId: string; detail: string; beforeClient?: boolean }): void;
  /** Connecting the backend (or initializing it) failed; a session record (onSession) means it worked. */
  onBackendUnreachable?(error: string): void;
  /** Message capture (the Messages view): a tap for this session, or undefined when capture is off. */
  messageTap?(sessionId: string): SessionTap | undefined;
  /** Work a stop must wait for before it closes interceptor servers and the recorder (a record waiting for its sinks). */
  awaitBeforeStop?(work: Promise<unknown>): void;
}

export interface SessionOptions {
  principal?: string;
  transport: 'stdio' | 'http';
  /** A backend already started by the listener (stdio spawns it at gateway start to report failures early). */
  backend?: Backend;
}
