// TrafficPort on the store port (store/history-store.ts): the Traffic and Sinks reads of any engine
// that implements it, used for PostgreSQL. (SQLite keeps SqliteTraffic, whose synchronous reads the
// desktop console has always used.) Nothing here filters in memory: every read is the store's query.
import type { HistoryFilter } from '../../../shared/api/models';
import type { BulkPlan, Facets, SinkEventPage, TrafficRow } from '../../../shared/api/models-traffic';
import { ApiError } from '../../../shared/api/envelope';
import { QueryError } from '../../history/sqlite';
import type { HistoryStore } from '../../history/model/history-store';
import { EXPORT_FORMAT, EXPORT_VERSION } from '../../history/model/portability/line-schema';
import { toStoreFilter } from './sqlite-traffic';
import type { ExecutionDetailView, SinkQuery, TrafficPort } from './traffic-port';

export class StoreTraffic implements TrafficPort {
  constructor(private readonly store: HistoryStore) {}

  async page(filter: HistoryFilter, cursor: string | undefined, limit: number): Promise<{ items: TrafficRow[]; nextCursor: string | null }> {
    const page = await this.guard(() => this.store.listExecutions(toStoreFilter(filter), { cursor: cursor ?? null, limit }));
    const items = page.items as TrafficRow[];
    const shadow = new Set(await this.store.shadowIds(items.map((i) => i.id)));
    for (const row of items) if (shadow.has(row.id)) row.shadow = true;
    const toolErrors = new Set(await this.store.toolErrorIds(items.map((i) => i.id)));
    for (const row of items) if (toolErrors.has(row.id)) row.toolError = true;
    return { items, nextCursor: page.nextCursor };
  }

  async count(filter: HistoryFilter, cap: number): Promise<{ count: number; capped: boolean }> {
    // One more than the cap tells "more than cap" from "exactly cap".
    const n = await this.guard(() => this.store.countExecutions(toStoreFilter(filter), { cap: cap + 1 }));
    return n > cap ? { count: cap, capped: true } : { count: n, capped: false };
  }

  facets(): Promise<Facets> {
    return this.store.facets();
  }

  async detail(id: string): Promise<ExecutionDetailView | undefined> {
    return (await this.store.getExecution(id)) as ExecutionDetailView | undefined;
  }

  async exportIds(ids: string[]): Promise<{ jsonl: string; count: number }> {
    const records = [];
    for (const id of new Set(ids)) {
      const r = await this.store.getExecutionRecord(id);
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
      const session = await this.store.getSession(r.gateway, r.sessionId);
      if (session) lines.push(JSON.stringify({ type: 'session', session }));
    }
    for (const r of records) lines.push(JSON.stringify({ type: 'execution', execution: r }));
    return { jsonl: `${lines.join('\n')}\n`, count: records.length };
  }

  async sinkEvents(q: SinkQuery): Promise<SinkEventPage> {
    const { cursor, limit, ...filter } = q;
    return (await this.guard(() => this.store.listSinkEvents(filter, { cursor: cursor ?? null, limit }))) as SinkEventPage;
  }

  async originals(filter: HistoryFilter, max: number): Promise<string[]> {
    return (await this.scanOriginals(filter, max)).ids;
  }

  async bulkPlan(filter: HistoryFilter, max: number): Promise<BulkPlan> {
    const { ids, replaysSkipped, more } = await this.scanOriginals(filter, max);
    return { toReplay: ids.length, replaysSkipped, more };
  }

  private async scanOriginals(filter: HistoryFilter, max: number): Promise<{ ids: string[]; replaysSkipped: number; more: boolean }> {
    const ids: string[] = [];
    let replaysSkipped = 0;
    let cursor: string | null = null;
    for (;;) {
      const page = await this.guard(() => this.store.listExecutions(toStoreFilter(filter), { cursor, limit: 500 }));
      for (const item of page.items) {
        if (item.replayOf !== undefined) replaysSkipped++;
        else if (ids.length >= max) return { ids, replaysSkipped, more: true };
        else ids.push(item.id);
      }
      if (!page.nextCursor) return { ids, replaysSkipped, more: false };
      cursor = page.nextCursor;
    }
  }

  /** A filter the store refuses (a bad date, a foreign cursor) is the caller's mistake, said as such. */
  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof QueryError) throw new ApiError('invalid_input', err.message);
      throw err;
    }
  }
}
