// The store port: what the app, the CLI and the tests need from a history, whichever engine keeps it.
// Every method is async, so that SQLite (in-process, synchronous underneath: sqlite-history-store.ts)
// and PostgreSQL (a server: store-postgres/) answer the same calls. The recorder is the gateway's
// Recorder interface; readers never go through it.
import type { ExecutionOutcome, ExecutionRecord, Recorder, SessionRecord } from '../../../shared/trace/execution';
import type { Facets } from '../../../shared/api/models-traffic';
import type { ExecutionDetail } from './executions';
import type { ExecutionFilter } from './filters';
import type { ExecutionPage, PageOptions } from './executions';
import type { RecordedGateway } from './aggregates';
import type { SinkEventFilter, SinkEventPage } from './sink-events';
import type { AggregateWindow, GatewayCounters, TimeBucket } from './aggregates';
import type { ImportOptions, ImportResult } from './portability/parse-export-lines';
import type { MessageDetail, MessageFilter, MessageSessionSummary, MessageSummary } from './messages';

export type StoreKind = 'sqlite' | 'postgres';

export interface RetentionOptions {
  maxExecutions?: number;
  maxAgeDays?: number;
  now?: number;
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
  listMessageSessions(gateway: string): Promise<MessageSessionSummary[]>;
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
  prune(options: RetentionOptions): Promise<{ deleted: number; messagesDeleted: number }>;
  /** JSONL export (header, gateways, sessions, executions oldest first), the matching ones with a filter. */
  exportLines(filter?: ExecutionFilter): AsyncGenerator<string>;
  importFromString(text: string, options?: ImportOptions): Promise<ImportResult>;
  close(): Promise<void>;
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
