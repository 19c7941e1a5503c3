// Writes one batch of encoded records in one transaction, with a fixed set of statements whatever the
// batch size: rows travel as arrays and are expanded by unnest(), so each statement is prepared once per
// connection (named) and a batch of 500 executions is a handful of round trips. Idempotent: an execution
// whose uuid is already stored is skipped (ON CONFLICT), sessions and gateways are upserts, so a batch
// retried after a lost connection, or by a restarted gateway, never duplicates a record.
import type pg from 'pg';
import type { EncodedExecution, EncodedGateway, EncodedMessage, EncodedSession } from '../model/encode/encoded';
import { searchVector } from './search-words';
import { insertMessages } from './message-insert';
import { indexedText, int32OrNull, nulFree, nulFreeJson } from './column-values';
import { storedPgItem, type DeferredPgExecution } from './deferred-execution';

/** A record as the statements below write it. */
export type StoredPgItem = EncodedGateway | (EncodedSession & { json: string }) | (EncodedExecution & { json: string }) | EncodedMessage;

/** What a recorder queues: executions may still be their JSON text (deferred-execution.ts), encoded by writeBatch. */
export type PgItem = StoredPgItem | DeferredPgExecution;

export interface BatchResult {
  /** Executions inserted; the others of the batch were already stored. */
  inserted: number;
  duplicates: number;
}

/**
 * The record's JSON as one line. JSON.stringify never writes a line break (one inside a string is escaped),
 * and every record here was written by it; a text that has one anyway is re-serialized rather than cut in two.
 */
function oneLine(json: string): string {
  return json.includes('\n') ? JSON.stringify(JSON.parse(json)) : json;
}

/** Gateway and interceptor ids, cached for the life of a writer: these rows are never deleted. */
export class IdCache {
  readonly gateways = new Map<string, number>();
  readonly interceptors = new Map<string, number>();
}

const key = (server: string, name: string) => `${server}\u0000${name}`;

async function ensureGateways(client: pg.PoolClient, names: string[], host: string | null, cache: IdCache): Promise<void> {
  const missing = [...new Set(names)].filter((n) => !cache.gateways.has(n)).sort();
  if (missing.length === 0) return;
  const now = new Date().toISOString();
  await client.query({
    name: 'ic_gateways_ensure',
    text: `INSERT INTO gateways (name, host, created_at, updated_at) SELECT n, $2, $3, $3 FROM unnest($1::text[]) AS n
           ON CONFLICT (name) DO NOTHING`,
    values: [missing, host, now],
  });
  const r = await client.query<{ id: number; name: string }>({
    name: 'ic_gateways_ids',
    text: 'SELECT id, name FROM gateways WHERE name = ANY($1::text[])',
    values: [missing],
  });
  for (const row of r.rows) cache.gateways.set(row.name, row.id);
}

async function ensureInterceptors(client: pg.PoolClient, pairs: [string, string][], cache: IdCache): Promise<void> {
  const seen = new Map<string, [string, string]>();
  for (const [s, n] of pairs) if (!cache.interceptors.has(key(s, n))) seen.set(key(s, n), [s, n]);
  if (seen.size === 0) return;
  // Sorted: two writers inserting the same new names lock them in the same order (no deadlock).
  const missing = [...seen.values()].sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
  const servers = missing.map((p) => p[0]);
  const names = missing.map((p) => p[1]);
  await client.query({
    name: 'ic_interceptors_ensure',
    text: `INSERT INTO interceptors (server, name) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (server, name) DO NOTHING`,
    values: [servers, names],
  });
  const r = await client.query<{ id: number; server: string; name: string }>({
    name: 'ic_interceptors_ids',
    text: `SELECT i.id, i.server, i.name FROM interceptors i JOIN unnest($1::text[], $2::text[]) AS w(server, name) ON w.server = i.server AND w.name = i.name`,
    values: [servers, names],
  });
  for (const row of r.rows) cache.interceptors.set(key(row.server, row.name), row.id);
}

/**
 * Names are interned outside the batch's transaction (each an autocommitted upsert): a transaction
 * holding a new name's row lock would make every other writer that meets the name wait for it.
 */
export async function internNames(client: pg.PoolClient, items: readonly StoredPgItem[], host: string | null, cache: IdCache): Promise<void> {
  const gateways: string[] = [];
  const interceptors: [string, string][] = [];
  for (const item of items) {
    gateways.push(item.kind === 'gateway' ? item.name : item.gateway);
    if (item.kind !== 'execution') continue;
    for (const s of item.steps) interceptors.push([s.server, s.name]);
    if (item.blocked) interceptors.push([item.blocked.server, item.blocked.interceptor]);
  }
  await ensureGateways(client, gateways, host, cache);
  await ensureInterceptors(client, interceptors, cache);
}

/** Writes the items inside the caller's transaction (after internNames). */
export async function insertItems(client: pg.PoolClient, items: readonly StoredPgItem[], host: string | null, cache: IdCache): Promise<BatchResult> {
  const gw = (name: string) => cache.gateways.get(name)!;
  const ic = (server: string, name: string) => cache.interceptors.get(key(server, name))!;

  for (const item of items) {
    if (item.kind !== 'gateway') continue;
    await client.query({
      name: 'ic_gateway_config',
      text: `UPDATE gateways SET config_json = $2, updated_at = $3, host = coalesce($4, host),
               created_at = CASE WHEN $5::text IS NOT NULL AND $5::text < created_at THEN $5::text ELSE created_at END WHERE id = $1`,
      values: [gw(item.name), item.configJson, item.at, host, item.createdAt ?? null],
    });
  }

  // Sessions: the last record of a key in the batch wins (an upsert may not touch a row twice).
  const sessions = new Map<string, EncodedSession & { json: string }>();
  for (const item of items) if (item.kind === 'session') sessions.set(`${item.gateway}\u0000${item.key}`, item);
  if (sessions.size > 0) {
    const s = [...sessions.values()];
    await client.query({
      name: 'ic_sessions_upsert',
      text: `INSERT INTO sessions (gateway_id, session_key, started_at, record_json)
             SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[])
             ON CONFLICT (gateway_id, session_key) DO UPDATE SET started_at = excluded.started_at, record_json = excluded.record_json`,
      values: [s.map((x) => gw(x.gateway)), s.map((x) => indexedText(x.key)), s.map((x) => x.startedAt), s.map((x) => x.json)],
    });
  }

  await insertMessages(
    client,
    items.filter((i): i is EncodedMessage => i.kind === 'message'),
    host,
    gw,
  );

  const executions = items.filter((i): i is EncodedExecution & { json: string } => i.kind === 'execution');
  if (executions.length === 0) return { inserted: 0, duplicates: 0 };
  // The narrow columns travel as one JSON array expanded by json_to_recordset (the driver's escaping of text
  // arrays cost ~340 µs per execution). The two long texts, the record's JSON (~3 KB) and its search words,
  // travel as two texts of lines zipped back by position (ROWS FROM): inside the JSON array each record was
  // escaped by the client and unescaped by the server, ~75 µs per execution of both sides' CPU (bench/postgres.ts).
  const rows = executions.map((e) => ({
    u: e.uuid,
    g: gw(e.gateway),
    h: host,
    sk: indexedText(e.sessionKey),
    ev: indexedText(e.event),
    t: indexedText(e.target),
    sm: e.startedMs,
    sa: e.startedAtText,
    d: e.durationMs,
    o: e.outcome,
    ec: int32OrNull(e.errorCode),
    bi: e.blocked ? ic(e.blocked.server, e.blocked.interceptor) : null,
    bp: e.blocked?.phase ?? null,
    sim: e.simulated === null ? null : e.simulated === 1,
    ro: indexedText(e.replayOf),
  }));
  const r = await client.query<{ id: string; uuid: string }>({
    name: 'ic_executions_insert_lines',
    // coalesce: a batch whose only execution has no word sends '', which string_to_array reads as no line.
    text: `INSERT INTO executions (uuid, gateway_id, host, session_key, event, target, started_ms, started_at, duration_ms, outcome, error_code,
             blocked_interceptor_id, blocked_phase, simulated, replay_of, search, record_json)
           SELECT u, g, h, sk, ev, t, sm, sa, d, o, ec, bi, bp, sim, ro, coalesce(sv, '')::tsvector, j
           FROM ROWS FROM (
             json_to_recordset($1::json) AS (u text, g int, h text, sk text, ev text, t text, sm bigint, sa text, d float8, o text, ec int,
                                             bi int, bp text, sim bool, ro text),
             unnest(string_to_array($2::text, E'\\n')),
             unnest(string_to_array($3::text, E'\\n'))
           ) AS x(u, g, h, sk, ev, t, sm, sa, d, o, ec, bi, bp, sim, ro, j, sv)
           ON CONFLICT (uuid) DO NOTHING RETURNING id, uuid`,
    values: [nulFreeJson(rows), executions.map((e) => oneLine(e.json)).join('\n'), nulFree(executions.map((e) => searchVector(e)).join('\n'))],
  });
  const ids = new Map(r.rows.map((row) => [row.uuid, row.id]));
  const step = {
    e: [] as string[],
    seq: [] as number[],
    phase: [] as string[],
    ic: [] as number[],
    type: [] as string[],
    outcome: [] as string[],
    skipped: [] as (string | null)[],
    shadow: [] as boolean[],
    failed: [] as boolean[],
    dur: [] as number[],
  };
  const sink = {
    sm: [] as number[],
    e: [] as string[],
    seq: [] as number[],
    gw: [] as number[],
    ic: [] as number[],
    event: [] as string[],
    phase: [] as string[],
    rec: [] as boolean[],
    metrics: [] as (string | null)[],
    error: [] as (string | null)[],
    at: [] as number[],
  };
  for (const e of executions) {
    const id = ids.get(e.uuid);
    if (id === undefined) continue;
    e.steps.forEach((s, seq) => {
      const interceptor = ic(s.server, s.name);
      step.e.push(id);
      step.seq.push(seq);
      step.phase.push(s.phase);
      step.ic.push(interceptor);
      step.type.push(s.type);
      step.outcome.push(s.outcome);
      step.skipped.push(s.skipped && s.skipped !== '' ? s.skipped : null);
      step.shadow.push(s.shadow === 1);
      step.failed.push(s.errorJson !== null);
      step.dur.push(s.durationMs);
      if (s.sink && (s.skipped === null || s.skipped === '')) {
        sink.e.push(id);
        sink.sm.push(e.startedMs);
        sink.seq.push(seq);
        sink.gw.push(gw(e.gateway));
        sink.ic.push(interceptor);
        sink.event.push(e.event);
        sink.phase.push(s.phase);
        sink.rec.push(s.sink.recorded === 1);
        sink.metrics.push(s.sink.metricsJson);
        sink.error.push(s.errorJson);
        sink.at.push(Math.round(s.sink.atMs ?? e.startedMs + s.startMs));
      }
    });
  }
  if (step.e.length > 0) {
    await client.query({
      name: 'ic_steps_insert',
      text: `INSERT INTO steps (execution_id, seq, phase, interceptor_id, type, outcome, skipped, shadow, failed, duration_ms)
             SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::bool[], $9::bool[], $10::float8[])`,
      values: [step.e, step.seq, step.phase, step.ic, step.type, step.outcome, step.skipped, step.shadow, step.failed, step.dur],
    });
  }
  if (sink.e.length > 0) {
    await client.query({
      name: 'ic_sink_events_insert',
      text: `INSERT INTO sink_events (execution_id, seq, gateway_id, interceptor_id, event, phase, recorded, metrics_json, error_json, at_ms, started_ms)
             SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::bool[], $8::text[], $9::text[], $10::bigint[], $11::bigint[])`,
      values: [sink.e, sink.seq, sink.gw, sink.ic, sink.event, sink.phase, sink.rec, sink.metrics, sink.error, sink.at, sink.sm],
    });
  }
  return { inserted: ids.size, duplicates: executions.length - ids.size };
}

/** internNames + insertItems in one transaction: the batch is stored whole or not at all. */
export async function writeBatch(pool: pg.Pool, queued: readonly PgItem[], host: string | null, cache: IdCache): Promise<BatchResult> {
  const items = queued.map(storedPgItem); // on the writer thread: deferred executions are encoded here
  const client = await pool.connect();
  let broken = false;
  // The server ending the connection between two statements (a restart, a failover, pg_terminate_backend)
  // is an 'error' event on the checked-out client, not a failed query: unheard, it would crash the gateway.
  // Heard, the connection is dropped and the next statement fails, so the batch is retried.
  const onError = () => {
    broken = true;
  };
  client.on('error', onError);
  try {
    await internNames(client, items, host, cache);
    await client.query('BEGIN');
    try {
      const result = await insertItems(client, items, host, cache);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw err;
    }
  } catch (err) {
    if ((err as { code?: string }).code === undefined) broken = true; // a network error: do not reuse the connection
    throw err;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}
