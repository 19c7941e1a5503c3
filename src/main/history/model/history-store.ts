// The one way into history: what the app, the CLI and the tests need from a history, whichever engine
// keeps it. Every method is async, so that SQLite (in-process, synchronous underneath:
// history/sqlite/sqlite-history-store.ts), PostgreSQL (a server: history/postgres/) and the in-memory
// stand-in (services/in-memory-history.ts) answer the same calls. The recorder is the gateway's Recorder
// interface; readers never go through it. A `RecordingHistory` is a store with the recorder that writes
// into it: what the console opens and runs on.
import type { ExecutionOutcome, ExecutionRecord, Recorder, SessionRecord } from '../../../shared/trace/execution';
import type { Redactor } from './redaction/redactor';
import type { Facets } from '../../../shared/api/models-traffic';
import type { ExecutionDetail } from './executions';
import type { ExecutionFilter } from './filters';
import type { ExecutionPage, PageOptions } from './executions';
import type { RecordedGateway } from './aggregates';
import type { SinkEventFilter, SinkEventPage } from './sink-events';
import type { AggregateWindow, GatewayCounters, TimeBucket } from './aggregates';
import type { ImportOptions, ImportResult } from './portability/parse-export-lines';
import type { MessageDetail, MessageFilter, MessageSessionSummary, MessageSummary, SessionListOptions } from './messages';

/** 'memory': no store could be opened, history is kept in this process only (app.info says why). */
export type StoreKind = 'sqlite' | 'postgres' | 'memory';

export interface RetentionOptions {
  maxExecutions?: number;
  maxAgeDays?: number;
  now?: number;
}

export interface PruneOptions extends RetentionOptions {
  /** SQLite: rewrite the whole file afterwards (smallest file, needs free space and time). PostgreSQL leaves space to autovacuum. */
  fullVacuum?: boolean;
}

/** What a prune deleted; the file figures only where the engine has a file (SQLite). */
export interface PruneReport {
  deleted: number;
  messagesDeleted: number;
  payloadsDeleted?: number;
  sessionsDeleted?: number;
  bytesBefore?: number;
  bytesAfter?: number;
}

export interface MessagePageOptions {
  cursor?: string | null;
  limit?: number;
  scanLimit?: number;
}

export interface MessagePage {
  items: MessageSummary[];
  nextCursor: string | null;
}

export interface HistoryStore {
  readonly kind: StoreKind;
  /** The file path, or the connection string without its password: for messages. */
  readonly location: string;
  listExecutions(filter?: ExecutionFilter, page?: PageOptions): Promise<ExecutionPage>;
  countExecutions(filter?: ExecutionFilter, options?: { cap?: number }): Promise<number>;
  countByOutcome(filter?: ExecutionFilter): Promise<Record<ExecutionOutcome, number>>;
  getExecution(id: string): Promise<ExecutionDetail | undefined>;
  getExecutionRecord(id: string): Promise<ExecutionRecord | undefined>;
  getSession(gateway: string, sessionId: string): Promise<SessionRecord | undefined>;
  listGateways(): Promise<RecordedGateway[]>;
  listSinkEvents(filter?: SinkEventFilter, page?: { limit?: number; cursor?: string | null }): Promise<SinkEventPage>;
  gatewayCounters(window?: AggregateWindow): Promise<GatewayCounters[]>;
  timeBuckets(options: AggregateWindow & { since: string | number; until: string | number; bucketMs: number }): Promise<TimeBucket[]>;
  facets(): Promise<Facets>;
  /** Which of these executions ran an audit-mode (shadow) interceptor. */
  shadowIds(ids: string[]): Promise<string[]>;
  /** Which of these executions' tools/call results say `isError: true` (shared/trace/tool-error.ts). */
  toolErrorIds(ids: string[]): Promise<string[]>;
  /** The Messages view: a gateway's sessions that have messages, most recently active first. */
  /**
   * `hideHealthPings`: the gateway's own entry (traffic outside sessions) is dated by its newest message that
   * is not a health ping (looked for among its newest OWN_ACTIVITY_SCAN messages), and left out when it has none.
   */
  listMessageSessions(gateway: string, options?: SessionListOptions): Promise<MessageSessionSummary[]>;
  /**
   * Messages newest first, keyset-paginated. A filter no index answers reads at most `scanLimit` rows per
   * call: a short page with a cursor means "read this far, go on from here".
   */
  listMessages(filter: MessageFilter, page?: MessagePageOptions): Promise<MessagePage>;
  getMessage(id: string): Promise<MessageDetail | undefined>;
  /** Every method recorded for a gateway (the method filter's suggestions). */
  messageMethods(gateway: string): Promise<string[]>;
  countPrunable(options: RetentionOptions): Promise<number>;
  /** Deletes executions beyond the policy, and the messages older than the oldest execution kept. */
  prune(options: PruneOptions): Promise<PruneReport>;
  /** JSONL export (header, gateways, sessions, executions oldest first), the matching ones with a filter. */
  exportLines(filter?: ExecutionFilter): AsyncGenerator<string>;
  importFromString(text: string, options?: ImportOptions): Promise<ImportResult>;
  /** The same from a file: SQLite streams it in one transaction; a server reads it whole (its lines still bounded). */
  importFromFile(path: string, options?: ImportOptions): Promise<ImportResult>;
  close(): Promise<void>;
}

/** A history the console runs on: the store, the recorder writing into it (closed with it), and redaction at rest. */
export interface RecordingHistory extends HistoryStore {
  readonly recorder: Recorder;
  /** Redaction at rest for what the recorder writes from now on; throws RedactionPathError for a bad path, changing nothing. */
  setRedaction(paths: string[]): void;
  /** The redactor in force (imports apply it like recording does); undefined when nothing is redacted. */
  readonly redactor: Redactor | undefined;
  /** Why history is kept in memory only, when it is. */
  readonly unavailableReason?: string;
}

/** Every line of an export joined, with the number of executions in it (API use; the CLI streams). */
export async function exportToText(store: HistoryStore, filter?: ExecutionFilter): Promise<{ jsonl: string; count: number }> {
  const lines: string[] = [];
  let count = 0;
  for await (const line of store.exportLines(filter)) {
    if (line.startsWith('{"type":"execution"')) count++;
    lines.push(line);
  }
  return { jsonl: `${lines.join('\n')}\n`, count };
}

export type { Recorder };
