// TrafficPort on the SQLite store: the store's own queries (filters compiled to index walks, keyset
// pages, FTS search) plus the few reads only these screens need. Nothing here filters in memory.
import type Database from 'better-sqlite3';
import type { HistoryFilter } from '../../../shared/api/models';
import type { BulkPlan, Facets, SinkEventPage, TrafficRow } from '../../../shared/api/models-traffic';
import { getExecution, getExecutionRecord, listExecutions, listSinkEvents, QueryError } from '../../history/sqlite';
import { compileFilter, type ExecutionFilter } from '../../history/sqlite/queries/filters';
import { cachedStatement } from '../../history/sqlite/queries/statement-cache';
import { SESSION_SELECT, sessionFromRow } from '../../history/sqlite/sql/reader';
import { EXPORT_FORMAT, EXPORT_VERSION } from '../../history/model/portability/line-schema';
import { facets, shadowIds } from '../../history/sqlite/queries/facets';
import { toolErrorIds } from '../../history/sqlite/queries/tool-errors';
import { ApiError } from '../../../shared/api/envelope';
import type { ExecutionDetailView, SinkQuery, TrafficPort } from './traffic-port';

export class SqliteTraffic implements TrafficPort {
  constructor(private readonly db: Database.Database) {}

  page(filter: HistoryFilter, cursor: string | undefined, limit: number): { items: TrafficRow[]; nextCursor: string | null } {
    const page = this.guard(() => listExecutions(this.db, toStoreFilter(filter), { cursor: cursor ?? null, limit }));
    const items = page.items as TrafficRow[];
    for (const id of this.shadowIds(items.map((i) => i.id))) {
      const row = items.find((i) => i.id === id);
      if (row) row.shadow = true;
    }
    const toolErrors = new Set(
      toolErrorIds(
        this.db,
        items.map((i) => i.id),
      ),
    );
    for (const row of items) if (toolErrors.has(row.id)) row.toolError = true;
    return { items, nextCursor: page.nextCursor };
  }

  count(filter: HistoryFilter, cap: number): { count: number; capped: boolean } {
    const c = this.guard(() => compileFilter(this.db, toStoreFilter(filter)));
    if (c.empty) return { count: 0, capped: false };
    const where = c.where.length > 0 ? `WHERE ${c.where.join(' AND ')}` : '';
    // LIMIT inside: the walk stops at cap + 1 rows however many match.
    const sql = `SELECT count(*) FROM (SELECT 1 FROM ${c.from} ${where} LIMIT ?)`;
    const n = cachedStatement(this.db, sql)
      .pluck()
      .get(...c.params, cap + 1) as number;
    return n > cap ? { count: cap, capped: true } : { count: n, capped: false };
  }

  facets(): Facets {
    return facets(this.db);
  }

  detail(id: string): ExecutionDetailView | undefined {
    return getExecution(this.db, id) as ExecutionDetailView | undefined;
  }

  exportIds(ids: string[]): { jsonl: string; count: number } {
    const records = [...new Set(ids)].map((id) => {
      const r = getExecutionRecord(this.db, id);
      if (!r) throw new ApiError('not_found', `No recorded execution with id "${id}": nothing was exported.`);
      return r;
    });
    records.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
    const lines = [JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION })];
    const sessions = new Set<string>();
    const session = cachedStatement(this.db, `${SESSION_SELECT} WHERE g.name = ? AND s.session_key = ?`);
    for (const r of records) {
      const key = `${r.gateway}\u0000${r.sessionId ?? ''}`;
      if (r.sessionId === undefined || sessions.has(key)) continue;
      sessions.add(key);
      const row = session.get(r.gateway, r.sessionId);
      if (row) lines.push(JSON.stringify({ type: 'session', session: sessionFromRow(row as Parameters<typeof sessionFromRow>[0]) }));
    }
    for (const r of records) lines.push(JSON.stringify({ type: 'execution', execution: r }));
    return { jsonl: `${lines.join('\n')}\n`, count: records.length };
  }

  sinkEvents(q: SinkQuery): SinkEventPage {
    const { cursor, limit, ...filter } = q;
    return this.guard(() => listSinkEvents(this.db, filter, { cursor: cursor ?? null, limit })) as SinkEventPage;
  }

  originals(filter: HistoryFilter, max: number): string[] {
    return this.scanOriginals(filter, max).ids;
  }

  bulkPlan(filter: HistoryFilter, max: number): BulkPlan {
    const { ids, replaysSkipped, more } = this.scanOriginals(filter, max);
    return { toReplay: ids.length, replaysSkipped, more };
  }

  /** The newest `max` matching originals, the replays passed over on the way, and whether more originals follow. */
  private scanOriginals(filter: HistoryFilter, max: number): { ids: string[]; replaysSkipped: number; more: boolean } {
    const ids: string[] = [];
    let replaysSkipped = 0;
    let cursor: string | null = null;
    for (;;) {
      const page = this.guard(() => listExecutions(this.db, toStoreFilter(filter), { cursor, limit: 500 }));
      for (const item of page.items) {
        if (item.replayOf !== undefined) replaysSkipped++;
        else if (ids.length >= max) return { ids, replaysSkipped, more: true };
        else ids.push(item.id);
      }
      if (!page.nextCursor) return { ids, replaysSkipped, more: false };
      cursor = page.nextCursor;
    }
  }

  private shadowIds(ids: string[]): string[] {
    return shadowIds(this.db, ids);
  }

  /** A filter the store refuses (a bad date, a foreign cursor) is the caller's mistake, said as such. */
  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof QueryError) throw new ApiError('invalid_input', err.message);
      throw err;
    }
  }
}

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
