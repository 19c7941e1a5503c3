// What the app needs from the history store. The SQLite store (src/main/store) is adapted to it in
// `sqlite-history.ts`, the PostgreSQL store (src/main/store-postgres) in `postgres-history.ts`;
// `InMemoryHistory` (in-memory-history.ts) stands in where no store is available (the store could not
// be opened, or tests of the API alone). Answers may be promises: a server-backed store is async.
import type { TrafficPort } from './traffic/traffic-port';
import type { HistoryStore } from '../history/model/history-store';
import type { Recorder } from '../../shared/trace/execution';
import type { ExecutionSummary, GatewayCounters, HistoryFilter, LatencyBucket } from '../../shared/api/models';

export type Awaitable<T> = T | Promise<T>;

export interface HistoryPort {
  readonly kind: 'sqlite' | 'postgres' | 'memory';
  readonly recorder: Recorder;
  /** The Traffic and Sinks reads, when this store has them (SQLite's are built by handlers-traffic.ts). */
  readonly traffic?: TrafficPort;
  /** The store port on the same history (the Messages view reads through it); absent without a store. */
  readonly store?: HistoryStore;
  stats(gateway: string, since: Date, bucketMs: number): Awaitable<{ counters: GatewayCounters; buckets: LatencyBucket[] }>;
  query(filter: HistoryFilter, cursor: string | undefined, limit: number): Awaitable<{ items: ExecutionSummary[]; nextCursor: string | null; total?: number }>;
  detail(id: string): Awaitable<Record<string, unknown> | undefined>;
  exportJsonl(filter: HistoryFilter): Awaitable<{ jsonl: string; count: number }>;
  importJsonl(text: string): Awaitable<number>;
  prune(options: { maxExecutions?: number; maxAgeDays?: number }): Awaitable<number>;
  /** How many executions prune() would delete now with these options, of how many recorded. */
  countPrunable(options: { maxExecutions?: number; maxAgeDays?: number }): Awaitable<{ wouldDelete: number; total: number }>;
  sinkEvents(options: { gateway?: string; interceptor?: string; limit: number }): Awaitable<Record<string, unknown>[]>;
  /** Redaction at rest: JSON paths replaced before records are written (stores that support it). */
  setRedaction?(paths: string[]): void;
  /** Throws a message saying what is wrong with a path, without applying anything. */
  checkRedaction?(paths: string[]): void;
  close(): Promise<void>;
}
