// What the Traffic and Sinks screens read from the history store, beyond the generic HistoryPort:
// pages with per-row badges, capped counts, filter facets, exports of a selection, filtered sink-event
// pages, and the executions a bulk replay runs over. `SqliteTraffic` implements it on the store.
import type { HistoryFilter } from '../../../shared/api/models';
import type { BulkPlan, Facets, SinkEventPage, TrafficRow } from '../../../shared/api/models-traffic';
import type { ExecutionRecord, SessionRecord } from '../../../shared/trace/execution';

type Awaitable<T> = T | Promise<T>;

export interface SinkQuery {
  gateway?: string;
  interceptor?: string;
  event?: string;
  phase?: 'request' | 'response';
  recorded?: boolean;
  since?: string;
  until?: string;
  cursor?: string;
  limit: number;
}

export interface ExecutionDetailView extends ExecutionRecord {
  sinkEvents: unknown[];
  replayedBy: string[];
  session?: SessionRecord;
}

export interface TrafficPort {
  /** Newest first, keyset-paginated; one index walk per page (no count). */
  page(filter: HistoryFilter, cursor: string | undefined, limit: number): Awaitable<{ items: TrafficRow[]; nextCursor: string | null }>;
  /** Counts matches, stopping at `cap` so that a count never walks a million rows. */
  count(filter: HistoryFilter, cap: number): Awaitable<{ count: number; capped: boolean }>;
  facets(): Awaitable<Facets>;
  detail(id: string): Awaitable<ExecutionDetailView | undefined>;
  /** JSONL of exactly these executions (the sessions they belong to included), oldest first. */
  exportIds(ids: string[]): Awaitable<{ jsonl: string; count: number }>;
  sinkEvents(query: SinkQuery): Awaitable<SinkEventPage>;
  /** Ids of the newest `max` matching executions that are not replays themselves. */
  originals(filter: HistoryFilter, max: number): Awaitable<string[]>;
  /** What `originals` would pick, counted: said in the Bulk replay dialog before it starts. */
  bulkPlan(filter: HistoryFilter, max: number): Awaitable<BulkPlan>;
}
