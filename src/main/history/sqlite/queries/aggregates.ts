// Aggregates for the Gateways cards and the Traffic charts: counters per gateway, latency
// percentiles per interceptor, and time buckets for sparklines. Percentiles are computed by
// SQLite's percentile extension (compiled into better-sqlite3), in one pass over a key range.
import type Database from 'better-sqlite3';
import { lowerKeyFor, upperKeyFor } from '../sql/execution-ids';
import { gatewayIds, toMs } from './filters';
import { QueryError } from '../../model/query-error';
import { cachedStatement } from './statement-cache';
import type { AggregateWindow, GatewayCounters, InterceptorLatency, TimeBucket } from '../../model/aggregates';

export type { AggregateWindow, GatewayCounters, InterceptorLatency, TimeBucket };

interface Range {
  where: string[];
  params: unknown[];
  empty: boolean;
}

function range(db: Database.Database, w: AggregateWindow): Range {
  const where: string[] = [];
  const params: unknown[] = [];
  if (w.gateway) {
    const ids = gatewayIds(db, [w.gateway]);
    if (ids.length === 0) return { where, params, empty: true };
    where.push('e.gateway_id = ?');
    params.push(ids[0]);
  }
  if (w.since !== undefined) {
    const ms = toMs(w.since, 'since');
    where.push('e.id >= ?', 'e.started_ms >= ?');
    params.push(lowerKeyFor(ms), ms);
  }
  if (w.until !== undefined) {
    const ms = toMs(w.until, 'until');
    where.push('e.id < ?', 'e.started_ms < ?');
    params.push(upperKeyFor(ms), ms);
  }
  return { where, params, empty: false };
}

const whereSql = (r: Range) => (r.where.length > 0 ? `WHERE ${r.where.join(' AND ')}` : '');

export function gatewayCounters(db: Database.Database, window: AggregateWindow = {}): GatewayCounters[] {
  const r = range(db, window);
  if (r.empty) return [];
  const sql = `SELECT g.name AS gateway, count(*) AS calls, sum(e.outcome = 'allow') AS allowed, sum(e.outcome = 'blocked') AS blocked,
      sum(e.outcome = 'mutated') AS mutated, sum(e.outcome = 'error') AS errors,
      median(e.duration_ms) AS p50Ms, percentile(e.duration_ms, 95) AS p95Ms, max(e.started_ms) AS lastMs
    FROM executions e JOIN gateways g ON g.id = e.gateway_id ${whereSql(r)} GROUP BY e.gateway_id ORDER BY g.name`;
  return (cachedStatement(db, sql).all(...r.params) as (Omit<GatewayCounters, 'lastAt'> & { lastMs: number | null })[]).map(({ lastMs, ...c }) => ({
    ...c,
    lastAt: lastMs === null ? null : new Date(lastMs).toISOString(),
  }));
}

export function interceptorLatency(db: Database.Database, window: AggregateWindow & { phase?: 'request' | 'response' } = {}): InterceptorLatency[] {
  const r = range(db, window);
  if (r.empty) return [];
  const where = [...r.where, 's.skipped IS NULL'];
  const params = [...r.params];
  if (window.phase) {
    where.push('s.phase = ?');
    params.push(window.phase);
  }
  const sql = `SELECT i.server, i.name, s.type, s.phase, count(*) AS invocations, sum(s.outcome = 'blocked') AS blocked,
      sum(s.outcome = 'mutated') AS mutated, sum(s.error_json IS NOT NULL) AS failed,
      median(s.duration_ms) AS p50Ms, percentile(s.duration_ms, 90) AS p90Ms, percentile(s.duration_ms, 99) AS p99Ms, max(s.duration_ms) AS maxMs
    FROM executions e JOIN steps s ON s.execution_id = e.id JOIN interceptors i ON i.id = s.interceptor_id
    WHERE ${where.join(' AND ')}
    GROUP BY s.interceptor_id, s.phase, s.type ORDER BY i.server, i.name, s.phase`;
  return (cachedStatement(db, sql).all(...params) as Omit<InterceptorLatency, 'interceptor'>[]).map((row) => ({
    interceptor: `${row.server}/${row.name}`,
    ...row,
  }));
}

/** Counts and median latency per bucket between since and until; empty buckets are included. */
export function timeBuckets(
  db: Database.Database,
  options: AggregateWindow & { since: string | number; until: string | number; bucketMs: number },
): TimeBucket[] {
  const since = toMs(options.since, 'since');
  const until = toMs(options.until, 'until');
  const bucketMs = Math.floor(options.bucketMs);
  if (!(bucketMs >= 1)) throw new QueryError('bucketMs must be at least 1');
  const count = Math.ceil((until - since) / bucketMs);
  if (count <= 0) return [];
  if (count > 10_000) throw new QueryError(`${count} buckets is too many; use a larger bucket (at most 10,000 buckets)`);
  const buckets: TimeBucket[] = Array.from({ length: count }, (_, i) => ({
    start: new Date(since + i * bucketMs).toISOString(),
    startMs: since + i * bucketMs,
    calls: 0,
    blocked: 0,
    mutated: 0,
    errors: 0,
    p50Ms: null,
  }));
  const r = range(db, { gateway: options.gateway, since, until });
  if (r.empty) return buckets;
  // better-sqlite3 binds JS numbers as REAL, so the division must be truncated to a bucket index.
  const sql = `SELECT CAST((e.started_ms - ?) / ? AS INTEGER) AS b, count(*) AS calls, sum(e.outcome = 'blocked') AS blocked,
      sum(e.outcome = 'mutated') AS mutated, sum(e.outcome = 'error') AS errors, median(e.duration_ms) AS p50Ms
    FROM executions e ${whereSql(r)} GROUP BY b`;
  for (const row of cachedStatement(db, sql).all(since, bucketMs, ...r.params) as (Omit<TimeBucket, 'start' | 'startMs'> & { b: number })[]) {
    const bucket = buckets[row.b];
    if (!bucket) continue;
    Object.assign(bucket, { calls: row.calls, blocked: row.blocked, mutated: row.mutated, errors: row.errors, p50Ms: row.p50Ms });
  }
  return buckets;
}
