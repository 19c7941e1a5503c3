// The Traffic and Sinks reads on PostgreSQL: keyset pages newest first, capped counts, counts per
// outcome, one execution in full, sink events. Same results as the SQLite queries for the same data
// (the parametrised suite test/store/queries.test.ts runs on both).
import type pg from 'pg';
import type { ExecutionOutcome, ExecutionRecord, SessionRecord } from '../../../shared/trace/execution';
import type { ExecutionFilter } from '../model/filters';
import { toMs } from '../model/filters';
import { MAX_PAGE, type ExecutionPage, type ExecutionSummary, type PageOptions } from '../model/executions';
import type { ExecutionDetail } from '../model/executions';
import type { SinkEvent, SinkEventFilter, SinkEventPage } from '../model/sink-events';
import { QueryError } from '../model/query-error';
import { compilePgFilter, interceptorSubquery, parsePgCursor, whereClause } from './filters';
import { Params, prepared } from './statements';

interface SummaryRow {
  id: string;
  uuid: string;
  gateway: string;
  host: string | null;
  session_key: string | null;
  event: string;
  target: string | null;
  started_ms: string;
  started_at: string | null;
  duration_ms: number;
  outcome: ExecutionOutcome;
  blocked_server: string | null;
  blocked_name: string | null;
  blocked_phase: string | null;
  error_code: number | null;
  simulated: boolean | null;
  replay_of: string | null;
}

export async function pgListExecutions(db: pg.Pool, filter: ExecutionFilter = {}, page: PageOptions = {}): Promise<ExecutionPage> {
  const limit = Math.max(1, Math.min(MAX_PAGE, Math.floor(page.limit ?? 100)));
  const p = new Params();
  const c = compilePgFilter(filter, p);
  const cursor = parsePgCursor(page.cursor);
  if (c.empty) return { items: [], nextCursor: null, ...(page.withTotal ? { total: 0 } : {}) };
  const where = [...c.where];
  if (cursor) where.push(`(e.started_ms, e.id) < (${p.add(cursor[0])}, ${p.add(cursor[1])})`);
  const sql = `SELECT e.id, e.uuid, g.name AS gateway, e.host, e.session_key, e.event, e.target, e.started_ms, e.started_at, e.duration_ms, e.outcome,
      bi.server AS blocked_server, bi.name AS blocked_name, e.blocked_phase, e.error_code, e.simulated, e.replay_of
    FROM executions e JOIN gateways g ON g.id = e.gateway_id LEFT JOIN interceptors bi ON bi.id = e.blocked_interceptor_id
    ${whereClause(where)} ORDER BY e.started_ms DESC, e.id DESC LIMIT ${p.add(limit + 1)}`;
  let rows: SummaryRow[];
  if (c.searching) {
    // The same conditions and parameters, the search tested on a bounded walk of the newest rows.
    const others = where.filter((w) => !w.startsWith('e.search @@'));
    const search = where.find((w) => w.startsWith('e.search @@'))!;
    const walk = `SELECT e.id, e.uuid, g.name AS gateway, e.host, e.session_key, e.event, e.target, e.started_ms, e.started_at, e.duration_ms, e.outcome,
        bi.server AS blocked_server, bi.name AS blocked_name, e.blocked_phase, e.error_code, e.simulated, e.replay_of
      FROM (SELECT * FROM executions e ${whereClause(others)} ORDER BY e.started_ms DESC, e.id DESC LIMIT ${SEARCH_WALK}) e
        JOIN gateways g ON g.id = e.gateway_id LEFT JOIN interceptors bi ON bi.id = e.blocked_interceptor_id
      WHERE ${search} ORDER BY e.started_ms DESC, e.id DESC LIMIT $${p.values.length}`;
    rows = await searchRows(db, sql, walk, p.values, limit);
  } else rows = (await prepared<SummaryRow>(db, sql, p.values)).rows;
  const more = rows.length > limit;
  if (more) rows.pop();
  const last = rows[rows.length - 1];
  const result: ExecutionPage = { items: rows.map(toSummary), nextCursor: more && last ? `${last.started_ms}:${last.id}` : null };
  if (page.withTotal) result.total = await pgCountExecutions(db, filter);
  return result;
}

/** How many of the newest (filtered) executions a search page walks before asking the text index instead. */
const SEARCH_WALK = 2_000;

/**
 * A search page. Walking the time index newest first and testing each row's words finds a common word's
 * newest matches at once, but walks every row for a word that is rare or absent (2 s on a million,
 * measured); the text index finds a rare word's few matches at once, but building the set of a common
 * word's million matches takes long (0.6 s). The planner cannot tell them apart from its statistics, so
 * the page first walks at most SEARCH_WALK of the newest executions that pass the other filters; if that
 * does not fill the page, it asks the text index (index scans off: a bitmap of the matches, then sorted).
 * The two statements differ in text, so a plan made with index scans off is never reused for the walk.
 */
async function searchRows(db: pg.Pool, pageSql: string, walkSql: string, values: unknown[], limit: number): Promise<SummaryRow[]> {
  const walked = (await prepared<SummaryRow>(db, walkSql, values)).rows;
  if (walked.length > limit) return walked;
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    try {
      await client.query('SET LOCAL enable_indexscan = off');
      await client.query('SET LOCAL enable_seqscan = off');
      const rows = (await prepared<SummaryRow>(client, `/* text index */ ${pageSql}`, values)).rows;
      await client.query('COMMIT');
      return rows;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  } finally {
    client.release();
  }
}

export async function pgCountExecutions(db: pg.Pool, filter: ExecutionFilter = {}, options: { cap?: number } = {}): Promise<number> {
  const p = new Params();
  const c = compilePgFilter(filter, p);
  if (c.empty) return 0;
  const sql =
    options.cap !== undefined
      ? `SELECT count(*)::int AS n FROM (SELECT 1 FROM executions e ${whereClause(c.where)} LIMIT ${p.add(Math.max(0, Math.floor(options.cap)))}) x`
      : `SELECT count(*)::int AS n FROM executions e ${whereClause(c.where)}`;
  return (await prepared<{ n: number }>(db, sql, p.values)).rows[0]!.n;
}

export async function pgCountByOutcome(db: pg.Pool, filter: ExecutionFilter = {}): Promise<Record<ExecutionOutcome, number>> {
  const out: Record<ExecutionOutcome, number> = { allow: 0, blocked: 0, mutated: 0, error: 0 };
  const p = new Params();
  const c = compilePgFilter(filter, p);
  if (c.empty) return out;
  const sql = `SELECT e.outcome, count(*)::int AS n FROM executions e ${whereClause(c.where)} GROUP BY e.outcome`;
  for (const row of (await prepared<{ outcome: ExecutionOutcome; n: number }>(db, sql, p.values)).rows) out[row.outcome] = row.n;
  return out;
}

function toSummary(r: SummaryRow): ExecutionSummary {
  const s: ExecutionSummary = {
    id: r.uuid,
    gateway: r.gateway,
    event: r.event,
    startedAt: r.started_at ?? new Date(Number(r.started_ms)).toISOString(),
    durationMs: r.duration_ms,
    outcome: r.outcome,
  };
  if (r.host !== null) s.host = r.host;
  if (r.session_key !== null) s.sessionId = r.session_key;
  if (r.target !== null) s.target = r.target;
  if (r.blocked_server !== null && r.blocked_name !== null) {
    s.blockedBy = { server: r.blocked_server, interceptor: r.blocked_name, ...(r.blocked_phase ? { phase: r.blocked_phase } : {}) };
  }
  if (r.error_code !== null) s.errorCode = r.error_code;
  if (r.simulated !== null) s.simulated = r.simulated;
  if (r.replay_of !== null) s.replayOf = r.replay_of;
  return s;
}

export async function pgGetExecutionRecord(db: pg.Pool, id: string): Promise<ExecutionRecord | undefined> {
  return (await recordWithHost(db, id))?.record;
}

async function recordWithHost(db: pg.Pool, id: string): Promise<{ record: ExecutionRecord; host: string | null } | undefined> {
  const r = await prepared<{ record_json: string; host: string | null }>(db, 'SELECT record_json, host FROM executions WHERE uuid = $1', [id]);
  return r.rows[0] ? { record: JSON.parse(r.rows[0].record_json) as ExecutionRecord, host: r.rows[0].host } : undefined;
}

export async function pgGetSession(db: pg.Pool, gateway: string, sessionId: string): Promise<SessionRecord | undefined> {
  const r = await prepared<{ record_json: string }>(
    db,
    'SELECT s.record_json FROM sessions s JOIN gateways g ON g.id = s.gateway_id WHERE g.name = $1 AND s.session_key = $2',
    [gateway, sessionId],
  );
  return r.rows[0] ? (JSON.parse(r.rows[0].record_json) as SessionRecord) : undefined;
}

export async function pgGetExecution(db: pg.Pool, id: string): Promise<ExecutionDetail | undefined> {
  const found = await recordWithHost(db, id);
  if (!found) return undefined;
  const { record, host } = found;
  const [sinks, replays, session] = await Promise.all([
    pgListSinkEvents(db, { executionId: id }, { limit: 1000 }),
    prepared<{ uuid: string }>(db, 'SELECT uuid FROM executions WHERE replay_of = $1 ORDER BY id', [id]),
    record.sessionId !== undefined ? pgGetSession(db, record.gateway, record.sessionId) : Promise.resolve(undefined),
  ]);
  const detail: ExecutionDetail = { ...record, sinkEvents: sinks.items.reverse(), replayedBy: replays.rows.map((r) => r.uuid) };
  if (session) detail.session = session;
  if (host !== null) detail.host = host;
  return detail;
}

interface SinkRow {
  execution_id: string;
  seq: number;
  started_ms: string;
  uuid: string;
  gateway: string;
  server: string;
  name: string;
  event: string;
  phase: string;
  recorded: boolean;
  metrics_json: string | null;
  error_json: string | null;
  at_ms: string;
}

export async function pgListSinkEvents(
  db: pg.Pool,
  filter: SinkEventFilter = {},
  page: { limit?: number; cursor?: string | null } = {},
): Promise<SinkEventPage> {
  const limit = Math.max(1, Math.min(1000, Math.floor(page.limit ?? 100)));
  const p = new Params();
  const where: string[] = [];
  if (filter.gateway) where.push(`se.gateway_id IN (SELECT id FROM gateways WHERE name = ${p.add(filter.gateway)})`);
  if (filter.interceptor) where.push(`se.interceptor_id IN ${interceptorSubquery(filter.interceptor, p)}`);
  if (filter.event) where.push(`se.event = ${p.add(filter.event)}`);
  if (filter.phase) where.push(`se.phase = ${p.add(filter.phase)}`);
  if (filter.recorded !== undefined) where.push(`se.recorded = ${p.add(filter.recorded)}`);
  if (filter.since !== undefined) where.push(`se.at_ms >= ${p.add(toMs(filter.since, 'since'))}`);
  if (filter.until !== undefined) where.push(`se.at_ms < ${p.add(toMs(filter.until, 'until'))}`);
  if (filter.executionId) where.push(`se.execution_id = (SELECT id FROM executions WHERE uuid = ${p.add(filter.executionId)})`);
  if (page.cursor) {
    const m = /^(-?\d+):(\d+):(\d+)$/.exec(page.cursor);
    if (!m) throw new QueryError(`cursor "${page.cursor}" is not one this store handed out; start again without a cursor`);
    where.push(`(se.started_ms, se.execution_id, se.seq) < (${p.add(Number(m[1]))}, ${p.add(m[2])}, ${p.add(Number(m[3]))})`);
  }
  const sql = `SELECT se.execution_id, se.seq, se.started_ms, e.uuid, g.name AS gateway, i.server, i.name, se.event, se.phase, se.recorded,
      se.metrics_json, se.error_json, se.at_ms
    FROM sink_events se JOIN executions e ON e.id = se.execution_id JOIN gateways g ON g.id = se.gateway_id
      JOIN interceptors i ON i.id = se.interceptor_id
    ${whereClause(where)} ORDER BY se.started_ms DESC, se.execution_id DESC, se.seq DESC LIMIT ${p.add(limit + 1)}`;
  const rows = (await prepared<SinkRow>(db, sql, p.values)).rows;
  const more = rows.length > limit;
  if (more) rows.pop();
  const last = rows[rows.length - 1];
  return { items: rows.map(toEvent), nextCursor: more && last ? `${last.started_ms}:${last.execution_id}:${last.seq}` : null };
}

function toEvent(r: SinkRow): SinkEvent {
  const ev: SinkEvent = {
    executionId: r.uuid,
    gateway: r.gateway,
    interceptor: `${r.server}/${r.name}`,
    server: r.server,
    name: r.name,
    event: r.event,
    phase: r.phase,
    recorded: r.recorded,
    at: new Date(Number(r.at_ms)).toISOString(),
  };
  if (r.metrics_json) ev.metrics = JSON.parse(r.metrics_json) as Record<string, number>;
  if (r.error_json) ev.error = JSON.parse(r.error_json);
  return ev;
}
