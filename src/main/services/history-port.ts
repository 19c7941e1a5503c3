// What the app needs from the history store. The SQLite store (src/main/store) is adapted to it in
// `sqlite-history.ts`; `InMemoryHistory` (in-memory-history.ts) stands in where no store is available
// (the SQLite file could not be opened, or tests of the API alone).
import type { Recorder } from '../../shared/trace/execution';
import type { ExecutionSummary, GatewayCounters, HistoryFilter, LatencyBucket } from '../../shared/api/models';

export interface HistoryPort {
  readonly kind: 'sqlite' | 'memory';
  readonly recorder: Recorder;
  stats(gateway: string, since: Date, bucketMs: number): { counters: GatewayCounters; buckets: LatencyBucket[] };
  query(filter: HistoryFilter, cursor: string | undefined, limit: number): { items: ExecutionSummary[]; nextCursor: string | null; total?: number };
  detail(id: string): Record<string, unknown> | undefined;
  exportJsonl(filter: HistoryFilter): { jsonl: string; count: number };
  importJsonl(text: string): number;
  prune(options: { maxExecutions?: number; maxAgeDays?: number }): number;
  /** How many executions prune() would delete now with these options, of how many recorded. */
  countPrunable(options: { maxExecutions?: number; maxAgeDays?: number }): { wouldDelete: number; total: number };
  sinkEvents(options: { gateway?: string; interceptor?: string; limit: number }): Record<string, unknown>[];
  /** Redaction at rest: JSON paths replaced before records are written (stores that support it). */
  setRedaction?(paths: string[]): void;
  /** Throws a message saying what is wrong with a path, without applying anything. */
  checkRedaction?(paths: string[]): void;
  close(): Promise<void>;
}
