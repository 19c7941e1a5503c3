// What the app's screens ask of the history, written once over the one history interface
// (model/history-store.ts), whichever engine is in use: Traffic pages with their badges (shadow runs,
// tool errors), capped counts, exports (a filter or a selection), the executions a bulk replay runs over,
// the Gateways cards' stats, prune and its preview, imports under the redaction at rest. A filter the store
// refuses (a bad date, a foreign cursor) is the caller's mistake and is said as such.
import { ApiError } from '../../../shared/api/envelope';
import type { GatewayCounters, HistoryFilter, LatencyBucket } from '../../../shared/api/models';
import type { BulkPlan, Facets, SinkEventPage } from '../../../shared/api/models-traffic';
import type { TrafficRow } from '../../../shared/api/models-execution';
import { exportToText, type RecordingHistory } from '../../history/model/history-store';
import type { ExecutionDetail } from '../../history/model/executions';
import type { ExecutionFilter } from '../../history/model/filters';
import { EXPORT_FORMAT, EXPORT_VERSION } from '../../history/model/portability/line-schema';
import { QueryError } from '../../history/model/query-error';
import { createRedactor } from '../../history/model/redaction/redactor';

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

type Retention = { maxExecutions?: number; maxAgeDays?: number };

export class HistoryService {
  constructor(readonly history: RecordingHistory) {}

  get kind() {
    return this.history.kind;
  }
  get recorder() {
    return this.history.recorder;
  }
  /** Why history is kept in memory only, when it is (app.info's storeError). */
  get unavailableReason() {
    return this.history.unavailableReason;
  }

  /** Newest first, keyset-paginated; one index walk per page (no count), each row with its badges. */
  async page(filter: HistoryFilter, cursor: string | undefined, limit: number): Promise<{ items: TrafficRow[]; nextCursor: string | null }> {
    const page = await guard(() => this.history.listExecutions(toStoreFilter(filter), { cursor: cursor ?? null, limit }));
    // The rows are the engine's summaries; the badges are set on them below.
    const items: TrafficRow[] = page.items;
    const ids = items.map((i) => i.id);
    const [shadow, toolErrors] = await Promise.all([this.history.shadowIds(ids), this.history.toolErrorIds(ids)]);
    const shadowSet = new Set(shadow);
    const toolErrorSet = new Set(toolErrors);
    for (const row of items) {
      if (shadowSet.has(row.id)) row.shadow = true;
      if (toolErrorSet.has(row.id)) row.toolError = true;
    }
    return { items, nextCursor: page.nextCursor };
  }

  /** Counts matches, stopping at `cap` so that a count never walks a million rows. */
  async count(filter: HistoryFilter, cap: number): Promise<{ count: number; capped: boolean }> {
    // One more than the cap tells "more than cap" from "exactly cap".
    const n = await guard(() => this.history.countExecutions(toStoreFilter(filter), { cap: cap + 1 }));
    return n > cap ? { count: cap, capped: true } : { count: n, capped: false };
  }

  facets(): Promise<Facets> {
    return this.history.facets();
  }

  /** One execution with its sink events, the replays made of it, and its session. */
  detail(id: string): Promise<ExecutionDetail | undefined> {
    return this.history.getExecution(id);
  }

  /** JSONL of the executions matching a filter (header, gateways, sessions, executions oldest first). */
  exportFiltered(filter: HistoryFilter): Promise<{ jsonl: string; count: number }> {
    return exportToText(this.history, toStoreFilter(filter));
  }

  /** JSONL of exactly these executions (the sessions they belong to included), oldest first. */
  async exportIds(ids: string[]): Promise<{ jsonl: string; count: number }> {
    const records = [];
    for (const id of new Set(ids)) {
      const r = await this.history.getExecutionRecord(id);
      if (!r) throw new ApiError('not_found', `No recorded execution with id "${id}": nothing was exported.`);
      records.push(r);
    }
    records.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
    const lines = [JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION })];
    const sessions = new Set<string>();
    for (const r of records) {
      const key = `${r.gateway}\u0000${r.sessionId ?? ''}`;
      if (r.sessionId === undefined || sessions.has(key)) continue;
      sessions.add(key);
      const session = await this.history.getSession(r.gateway, r.sessionId);
      if (session) lines.push(JSON.stringify({ type: 'session', session }));
    }
    for (const r of records) lines.push(JSON.stringify({ type: 'execution', execution: r }));
    return { jsonl: `${lines.join('\n')}\n`, count: records.length };
  }

  async sinkEvents(q: SinkQuery): Promise<SinkEventPage> {
    const { cursor, limit, ...filter } = q;
    return guard(() => this.history.listSinkEvents(filter, { cursor: cursor ?? null, limit }));
  }

  /** Ids of the newest `max` matching executions that are not replays themselves. */
  async originals(filter: HistoryFilter, max: number): Promise<string[]> {
    return (await this.scanOriginals(filter, max)).ids;
  }

  /** What `originals` would pick, counted: said in the Bulk replay dialog before it starts. */
  async bulkPlan(filter: HistoryFilter, max: number): Promise<BulkPlan> {
    const { ids, replaysSkipped, more } = await this.scanOriginals(filter, max);
    return { toReplay: ids.length, replaysSkipped, more };
  }

  /** A gateway's card: its counters and latency buckets since `since`. */
  async stats(gateway: string, since: Date, bucketMs: number): Promise<{ counters: GatewayCounters; buckets: LatencyBucket[] }> {
    const until = Date.now() + 1;
    const [[c], buckets] = await Promise.all([
      this.history.gatewayCounters({ gateway, since: since.getTime(), until }),
      this.history.timeBuckets({ gateway, since: since.getTime(), until, bucketMs }),
    ]);
    return {
      counters: { calls: c?.calls ?? 0, blocked: c?.blocked ?? 0, mutated: c?.mutated ?? 0, errors: c?.errors ?? 0, p50Ms: c?.p50Ms ?? null },
      buckets: buckets.map((b) => ({ start: b.start, calls: b.calls, p50Ms: b.p50Ms })),
    };
  }

  /** Imported executions obey the redaction at rest like recorded ones. */
  async importJsonl(text: string): Promise<number> {
    const redactor = this.history.redactor;
    return (await this.history.importFromString(text, redactor ? { redactor } : {})).executions;
  }

  async prune(options: Retention): Promise<number> {
    return (await this.history.prune(options)).deleted;
  }

  /** How many executions prune() would delete now with these options, of how many recorded. */
  async prunePreview(options: Retention): Promise<{ wouldDelete: number; total: number }> {
    const [wouldDelete, total] = await Promise.all([this.history.countPrunable(options), this.history.countExecutions()]);
    return { wouldDelete, total };
  }

  /** Redaction at rest: JSON paths replaced before records are written. */
  setRedaction(paths: string[]): void {
    this.history.setRedaction(paths);
  }

  /** Throws a message saying what is wrong with a path, without applying anything. */
  checkRedaction(paths: string[]): void {
    createRedactor({ paths });
  }

  /** The newest `max` matching originals, the replays passed over on the way, and whether more originals follow. */
  private async scanOriginals(filter: HistoryFilter, max: number): Promise<{ ids: string[]; replaysSkipped: number; more: boolean }> {
    const ids: string[] = [];
    let replaysSkipped = 0;
    let cursor: string | null = null;
    for (;;) {
      const page = await guard(() => this.history.listExecutions(toStoreFilter(filter), { cursor, limit: 500 }));
      for (const item of page.items) {
        if (item.replayOf !== undefined) replaysSkipped++;
        else if (ids.length >= max) return { ids, replaysSkipped, more: true };
        else ids.push(item.id);
      }
      if (!page.nextCursor) return { ids, replaysSkipped, more: false };
      cursor = page.nextCursor;
    }
  }
}

/** A filter the store refuses (a bad date, a foreign cursor) is the caller's mistake, said as such. */
async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof QueryError) throw new ApiError('invalid_input', err.message);
    throw err;
  }
}

/** The API's history filter as the store's execution filter. */
export function toStoreFilter(f: HistoryFilter): ExecutionFilter {
  const out: ExecutionFilter = {};
  if (f.gateway) out.gateway = f.gateway;
  if (f.host) out.host = f.host;
  if (f.event) out.event = f.event;
  if (f.target) out.target = f.target;
  if (f.outcome) out.outcome = f.outcome;
  if (f.interceptor) out.interceptor = f.interceptor;
  if (f.blockedBy) out.blockedBy = f.blockedBy;
  if (f.search) out.search = f.search;
  if (f.since) out.since = f.since;
  if (f.until) out.until = f.until;
  return out;
}
