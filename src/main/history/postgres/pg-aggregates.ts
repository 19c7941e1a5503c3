// The Gateways cards and filter suggestions on PostgreSQL: counters and median latency per gateway,
// time buckets for the sparklines, the gateways recorded (with the host that recorded them), facets.
import type pg from 'pg';
import type { Facets } from '../../../shared/api/models-traffic';
import type { AggregateWindow, GatewayCounters, TimeBucket } from '../model/aggregates';
import type { RecordedGateway } from '../model/aggregates';
import { toMs } from '../model/filters';
import { QueryError } from '../model/query-error';
import { whereClause } from './filters';
import { Params, prepared } from './statements';

function range(w: AggregateWindow, p: Params): string[] {
  const where: string[] = [];
  if (w.gateway) where.push(`e.gateway_id IN (SELECT id FROM gateways WHERE name = ${p.add(w.gateway)})`);
  if (w.since !== undefined) where.push(`e.started_ms >= ${p.add(toMs(w.since, 'since'))}`);
  if (w.until !== undefined) where.push(`e.started_ms < ${p.add(toMs(w.until, 'until'))}`);
  return where;
}

export async function pgGatewayCounters(db: pg.Pool, window: AggregateWindow = {}): Promise<GatewayCounters[]> {
  const p = new Params();
  const where = range(window, p);
  const sql = `SELECT g.name AS gateway, count(*)::int AS calls, count(*) FILTER (WHERE e.outcome = 'allow')::int AS allowed,
      count(*) FILTER (WHERE e.outcome = 'blocked')::int AS blocked, count(*) FILTER (WHERE e.outcome = 'mutated')::int AS mutated,
      count(*) FILTER (WHERE e.outcome = 'error')::int AS errors,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY e.duration_ms) AS p50, percentile_cont(0.95) WITHIN GROUP (ORDER BY e.duration_ms) AS p95,
      max(e.started_ms) AS last_ms
    FROM executions e JOIN gateways g ON g.id = e.gateway_id ${whereClause(where)} GROUP BY g.name ORDER BY g.name`;
  const rows = (
    await prepared<Omit<GatewayCounters, 'p50Ms' | 'p95Ms' | 'lastAt'> & { p50: number | null; p95: number | null; last_ms: string | null }>(db, sql, p.values)
  ).rows;
  return rows.map(({ p50, p95, last_ms, ...c }) => ({
    ...c,
    p50Ms: p50,
    p95Ms: p95,
    lastAt: last_ms === null ? null : new Date(Number(last_ms)).toISOString(),
  }));
}

export async function pgTimeBuckets(
  db: pg.Pool,
  options: AggregateWindow & { since: string | number; until: string | number; bucketMs: number },
): Promise<TimeBucket[]> {
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
  const p = new Params();
  const s = p.add(since);
  const b = p.add(bucketMs);
  const where = range({ ...(options.gateway ? { gateway: options.gateway } : {}), since, until }, p);
  const sql = `SELECT ((e.started_ms - ${s}::bigint) / ${b}::bigint)::int AS b, count(*)::int AS calls,
      count(*) FILTER (WHERE e.outcome = 'blocked')::int AS blocked, count(*) FILTER (WHERE e.outcome = 'mutated')::int AS mutated,
      count(*) FILTER (WHERE e.outcome = 'error')::int AS errors, percentile_cont(0.5) WITHIN GROUP (ORDER BY e.duration_ms) AS p50
    FROM executions e ${whereClause(where)} GROUP BY 1`;
  for (const row of (await prepared<{ b: number; calls: number; blocked: number; mutated: number; errors: number; p50: number | null }>(db, sql, p.values))
    .rows) {
    const bucket = buckets[row.b];
    if (bucket) Object.assign(bucket, { calls: row.calls, blocked: row.blocked, mutated: row.mutated, errors: row.errors, p50Ms: row.p50 });
  }
  return buckets;
}

export async function pgListGateways(db: pg.Pool): Promise<(RecordedGateway & { host: string | null })[]> {
  const r = await prepared<{ name: string; host: string | null; config_json: string | null; created_at: string; updated_at: string }>(
    db,
    'SELECT name, host, config_json, created_at, updated_at FROM gateways ORDER BY name',
  );
  return r.rows.map((g) => ({
    name: g.name,
    host: g.host,
    config: g.config_json === null ? null : (JSON.parse(g.config_json) as unknown),
    createdAt: g.created_at,
    updatedAt: g.updated_at,
  }));
}

export async function pgFacets(db: pg.Pool): Promise<Facets> {
  // A loose index scan (recursive CTE): one index seek per distinct value, not a walk over every execution.
  const distinct = async (column: string, limit: number) =>
    (
      await prepared<{ x: string }>(
        db,
        `WITH RECURSIVE v(x) AS (SELECT (SELECT min(${column}) FROM executions WHERE ${column} IS NOT NULL)
           UNION ALL SELECT (SELECT min(${column}) FROM executions WHERE ${column} > v.x) FROM v WHERE v.x IS NOT NULL)
         SELECT x FROM v WHERE x IS NOT NULL LIMIT ${limit}`,
      )
    ).rows.map((r) => r.x);
  const names = async (sql: string) => (await prepared<{ x: string }>(db, sql)).rows.map((r) => r.x);
  const [gateways, hosts, events, targets, interceptors, sinks] = await Promise.all([
    names('SELECT name AS x FROM gateways ORDER BY name'),
    distinct('host', 200),
    distinct('event', 200),
    distinct('target', 300),
    names(`SELECT server || '/' || name AS x FROM interceptors ORDER BY server, name`),
    names(
      `SELECT server || '/' || name AS x FROM interceptors i WHERE EXISTS (SELECT 1 FROM sink_events s WHERE s.interceptor_id = i.id) ORDER BY server, name`,
    ),
  ]);
  return { gateways, hosts, events, targets, interceptors, sinks };
}

export async function pgShadowIds(db: pg.Pool, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const r = await prepared<{ uuid: string }>(
    db,
    `SELECT e.uuid FROM executions e WHERE e.uuid = ANY($1::text[])
       AND EXISTS (SELECT 1 FROM steps s WHERE s.execution_id = e.id AND s.shadow AND s.skipped IS NULL)`,
    [ids],
  );
  return r.rows.map((x) => x.uuid);
}
