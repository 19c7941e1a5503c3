// The flat, JSON-serializable form of what the store writes. The recorder encodes a record when
// it is handed over (a snapshot: later mutations by the caller cannot leak in, and the queue's
// memory is measured exactly); the same form is spilled to disk and written by the inserter.

/** Index into EncodedExecution.payloads, or null when the field is absent. */
export type PayloadRef = number | null;

export interface EncodedStep {
  phase: string;
  server: string;
  name: string;
  type: string;
  pass: string;
  mode: string;
  failOpen: 0 | 1;
  priority: number;
  timeoutMs: number | null;
  skipped: string | null;
  skipDetail: string | null;
  input: PayloadRef;
  /** The result without its `payload` (that one is `resultPayload`). */
  resultJson: string | null;
  resultPayload: PayloadRef;
  errorJson: string | null;
  startMs: number;
  durationMs: number;
  outcome: string;
  shadow: 0 | 1;
  simulated: 0 | 1 | null;
  extraJson: string | null;
  /** Sink steps that ran: `recorded` and metrics of the sink event derived from this step. */
  sink: {
    recorded: 0 | 1;
    metricsJson: string | null;
    /** When the sink ran: its trace's start + startMs. Absent in spill files of earlier versions. */
    atMs?: number | null;
  } | null;
}

export interface EncodedTrace {
  /** The ChainTrace without steps, inputPayload and finalPayload. */
  json: string;
  input: PayloadRef;
  final: PayloadRef;
}

export interface EncodedExecution {
  kind: 'execution';
  uuid: string;
  gateway: string;
  sessionKey: string | null;
  jsonrpcId: string | number | null;
  event: string;
  target: string | null;
  startedMs: number;
  /** The recorded startedAt when it is not `new Date(startedMs).toISOString()`. */
  startedAtText: string | null;
  durationMs: number;
  outcome: string;
  /** Distinct JSON texts of this execution; every PayloadRef points here. */
  payloads: string[];
  requestReceived: PayloadRef;
  requestForwarded: PayloadRef;
  responseReceived: PayloadRef;
  responseReturned: PayloadRef;
  errorCode: number | null;
  errorJson: string | null;
  blocked: { server: string; interceptor: string; phase: string | null; json: string } | null;
  requestTrace: EncodedTrace | null;
  responseTrace: EncodedTrace | null;
  steps: EncodedStep[];
  simulated: 0 | 1 | null;
  replayOf: string | null;
  replayMode: string | null;
  extraJson: string | null;
  /**
   * What the search index gets: these payloads (refs), the error and the block reason, joined by
   * the writer (sql/search-text.ts), off the caller's thread.
   */
  search: { refs: number[]; extra: string[] };
  /** Approximate bytes this encoded record holds in memory (the queue's bound). */
  bytes: number;
}

export interface EncodedSession {
  kind: 'session';
  gateway: string;
  key: string;
  startedAt: string;
  clientInfoJson: string | null;
  principalJson: string | null;
  protocolVersion: string | null;
  transport: string | null;
  extraJson: string | null;
  bytes: number;
}

export interface EncodedGateway {
  kind: 'gateway';
  name: string;
  configJson: string | null;
  /** When the snapshot was taken (updated_at). */
  at: string;
  /** created_at for a gateway not yet in the file (import keeps the original); defaults to `at`. */
  createdAt?: string;
  bytes: number;
}

/** One captured JSON-RPC message (sql/encode-message.ts). */
export interface EncodedMessage {
  kind: 'message';
  uuid: string;
  gateway: string;
  sessionKey: string | null;
  atMs: number;
  side: string;
  direction: string;
  peer: string | null;
  messageKind: string;
  method: string | null;
  jsonrpcId: string | number | null;
  executionUuid: string | null;
  size: number;
  truncated: 0 | 1;
  body: string;
  bytes: number;
}

export type EncodedItem = EncodedExecution | EncodedSession | EncodedGateway | EncodedMessage;

/**
 * An execution checked when it was handed over and kept as its JSON text, to be encoded by whoever writes
 * it (the SQLite writer thread): see deferred.ts. On disk (journal, spill file) it is a JournaledExecution.
 */
export interface DeferredExecution {
  kind: 'execution-text';
  uuid: string;
  /** JSON text of the (redacted) ExecutionRecord. */
  text: string;
  /** When it was handed over (Date.now()). */
  receivedMs: number;
  bytes: number;
}

/** A DeferredExecution as a journal or spill file holds it (its text inline: no escaping), read back. */
export interface JournaledExecution {
  kind: 'execution-record';
  receivedMs: number;
  record: unknown;
}

/** What a recorder accepts into its memory queue (each with its size). */
export type AcceptedItem = EncodedItem | DeferredExecution;

/** What a recorder sends to its writer: accepted items, and items read back from journal and spill files. */
export type QueueItem = AcceptedItem | JournaledExecution;
