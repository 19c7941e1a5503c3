// The Sinks screen: sink events newest first, by interceptor, event, recorded flag and time.
import type Database from 'better-sqlite3';
import { lowerKeyFor, upperKeyFor } from '../sql/execution-ids';
import { gatewayIds, interceptorIds, toMs } from './filters';
import { QueryError } from '../../model/query-error';
import { cachedStatement } from './statement-cache';
import type { SinkEvent, SinkEventFilter, SinkEventPage } from '../../model/sink-events';

export type { SinkEvent, SinkEventFilter, SinkEventPage };

interface Row {
  execution_id: number;
  seq: number;
  uuid: string;
  gateway: string;
  server: string;
  name: string;
  event: string;
  phase: string;
  recorded: number;
  metrics_json: string | null;
  error_json: string | null;
  at_ms: number;
}

export function listSinkEvents(db: Database.Database, filter: SinkEventFilter = {}, page: { limit?: number; cursor?: string | null } = {}): SinkEventPage {
  const limit = Math.max(1, Math.min(1000, Math.floor(page.limit ?? 100)));
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.gateway) {
    const ids = gatewayIds(db, [filter.gateway]);
    if (ids.length === 0) return { items: [], nextCursor: null };
    where.push('se.gateway_id = ?');
    params.push(ids[0]);
  }
  if (filter.interceptor) {
    const ids = interceptorIds(db, filter.interceptor);
    if (ids.length === 0) return { items: [], nextCursor: null };
    where.push(`se.interceptor_id IN (${ids.map(() => '?').join(', ')})`);
    params.push(...ids);
  }
  if (filter.event) {
    where.push('se.event = ?');
    params.push(filter.event);
  }
  if (filter.phase) {
    where.push('se.phase = ?');
    params.push(filter.phase);
  }
  if (filter.recorded !== undefined) {
    where.push('se.recorded = ?');
    params.push(filter.recorded ? 1 : 0);
  }
  if (filter.since !== undefined) {
    const ms = toMs(filter.since, 'since');
    where.push('se.execution_id >= ?', 'se.at_ms >= ?');
    params.push(lowerKeyFor(ms - 60_000), ms); // an event happens after its execution started
  }
  if (filter.until !== undefined) {
    const ms = toMs(filter.until, 'until');
    where.push('se.execution_id < ?', 'se.at_ms < ?');
    params.push(upperKeyFor(ms), ms);
  }
  if (filter.executionId) {
    // By key, so the walk is that execution's few rows (a uuid test would scan every event).
    const key = cachedStatement(db, 'SELECT id FROM executions WHERE uuid = ?').pluck().get(filter.executionId) as number | undefined;
    if (key === undefined) return { items: [], nextCursor: null };
    where.push('se.execution_id = ?');
    params.push(key);
  }
  if (page.cursor) {
    const m = /^(-?\d+):(\d+)$/.exec(page.cursor);
    if (!m) throw new QueryError(`cursor "${page.cursor}" is not one this store handed out; start again without a cursor`);
    where.push('(se.execution_id, se.seq) < (?, ?)');
    params.push(Number(m[1]), Number(m[2]));
  }
  // CROSS JOIN: sink_events drive the walk newest first (see list-executions.ts for why it must be pinned).
  const sql = `SELECT se.execution_id, se.seq, e.uuid, g.name AS gateway, i.server, i.name, se.event, se.phase, se.recorded,
      se.metrics_json, se.error_json, se.at_ms
    FROM sink_events se CROSS JOIN executions e ON e.id = se.execution_id CROSS JOIN gateways g ON g.id = se.gateway_id
      CROSS JOIN interceptors i ON i.id = se.interceptor_id
    ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY se.execution_id DESC, se.seq DESC LIMIT ?`;
  const rows = cachedStatement(db, sql).all(...params, limit + 1) as Row[];
  const more = rows.length > limit;
  if (more) rows.pop();
  const last = rows[rows.length - 1];
  return { items: rows.map(toEvent), nextCursor: more && last ? `${last.execution_id}:${last.seq}` : null };
}

function toEvent(r: Row): SinkEvent {
  const ev: SinkEvent = {
    executionId: r.uuid,
    gateway: r.gateway,
    interceptor: `${r.server}/${r.name}`,
    server: r.server,
    name: r.name,
    event: r.event,
    phase: r.phase,
    recorded: r.recorded === 1,
    at: new Date(r.at_ms).toISOString(),
  };
  if (r.metrics_json) ev.metrics = JSON.parse(r.metrics_json) as Record<string, number>;
  if (r.error_json) ev.error = JSON.parse(r.error_json);
  return ev;
}
