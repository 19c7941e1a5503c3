// One intercepted exchange as the gateway hands it to a recorder (and the store persists it).
import type { PauseRecord } from './pauses';
import type { BlockInfo, ChainTrace } from './types';
import type { MessageRecord } from './messages';

export type ExecutionOutcome = 'allow' | 'blocked' | 'mutated' | 'error';

export interface SessionRecord {
  /** Gateway-local session id (also sent as context.sessionId). */
  id: string;
  gateway: string;
  startedAt: string;
  clientInfo?: { name: string; version?: string; [k: string]: unknown };
  principal?: { type: 'user' | 'service' | 'anonymous'; id?: string };
  protocolVersion?: string;
  transport?: 'stdio' | 'http';
}

export interface ExecutionRecord {
  /** UUID assigned by the gateway. */
  id: string;
  gateway: string;
  sessionId?: string;
  jsonrpcId?: string | number;
  /** The method, which is also the interceptor event (tools/call, resources/read, sampling/createMessage...). */
  event: string;
  /** Tool name, resource uri or prompt name, when the method has one. */
  target?: string;
  startedAt: string;
  durationMs: number;
  /** The request params as received from the client, and as forwarded after request-phase mutations. */
  requestReceived?: unknown;
  requestForwarded?: unknown;
  /** The result as received from the backend, and as returned after response-phase mutations. */
  responseReceived?: unknown;
  responseReturned?: unknown;
  /** A JSON-RPC error returned to the client (blocked non-tool calls, backend errors). */
  errorReturned?: { code: number; message: string; data?: unknown };
  outcome: ExecutionOutcome;
  blockedBy?: BlockInfo;
  requestTrace?: ChainTrace;
  responseTrace?: ChainTrace;
  /** Breakpoint pauses of this call, in order: who decided what, when; an edit's before/after. */
  pauses?: PauseRecord[];
  /** Some interceptor failure in this execution was forced by failure simulation. */
  simulated?: boolean;
  /** Set when this execution is a replay of another one. */
  replayOf?: string;
  /** 'chain-only' replays never reached a backend. */
  replayMode?: 'backend' | 'chain-only';
}

/** Where a gateway sends what it saw. The SQLite store implements it; tests may keep it in memory. */
export interface Recorder {
  /** The config a gateway runs with (secrets removed), recorded when it starts and on each reload. */
  recordGateway?(name: string, config: unknown): void;
  recordSession(session: SessionRecord): void;
  /** Must never throw and never block traffic: failures are counted and surfaced via stats(). */
  recordExecution(execution: ExecutionRecord): void;
  /** One JSON-RPC message on any side (the Messages view); recorders that keep none leave it out. */
  recordMessage?(message: MessageRecord): void;
  stats(): RecorderStats;
  /** Waits until everything queued so far is durable. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface RecorderStats {
  queued: number;
  written: number;
  failed: number;
  /** Last recording error, for the UI and the CLI to surface. */
  lastError?: string;
}

/** Keeps executions in memory: for tests and for gateways run with recording off. */
export class MemoryRecorder implements Recorder {
  readonly sessions: SessionRecord[] = [];
  readonly executions: ExecutionRecord[] = [];
  readonly messages: MessageRecord[] = [];
  recordMessage(message: MessageRecord): void {
    this.messages.push(message);
  }
  recordSession(session: SessionRecord): void {
    this.sessions.push(session);
  }
  recordExecution(execution: ExecutionRecord): void {
    this.executions.push(execution);
  }
  stats(): RecorderStats {
    return { queued: 0, written: this.executions.length, failed: 0 };
  }
  async flush(): Promise<void> {}
  async close(): Promise<void> {}
}
