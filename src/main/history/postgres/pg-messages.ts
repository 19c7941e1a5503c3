// The Messages view's reads on PostgreSQL, with the answers of the SQLite queries (history/sqlite/queries/messages.ts)
// for the same data: a gateway's sessions that have messages, a filtered page newest first, one message
// whole, the methods seen. Pages are ordered by (at_ms, id) and the cursor is `<at_ms>:<id>` of the last
// row, as the Traffic pages here. Each page walks one index chosen as SQLite's does (an execution's
// messages, a session's, a method across the gateway, or the gateway's in time order), and what that
// index does not answer (side, direction, kind, text…) is checked on at most scanLimit rows of the walk:
// a filter that matches little in a big history answers in bounded steps, saying where the walk stopped.
import type pg from 'pg';
import {
  MAX_METHODS,
  MAX_PAGE,
  MAX_SESSIONS,
  PREVIEW_CHARS,
  SCAN_LIMIT,
  OWN_ACTIVITY_SCAN,
  HEALTH_PING,
  excludedMethods,
  healthPingsPossible,
  type MessageDetail,
  type MessageFilter,
  type MessageSessionSummary,
  type MessageSummary,
  type SessionListOptions,
} from '../model/messages';
import type { MessageDirection, MessageKind, MessageSide } from '../../../shared/trace/messages';
import { parsePgCursor } from './filters';
import { Params, prepared } from './statements';

interface Row {
  id: string;
  uuid: string;
  session_key: string | null;
  at_ms: string;
  side: MessageSide;
  direction: MessageDirection;
  peer: string | null;
  kind: MessageKind;
  method: string | null;
  jsonrpc_id: string | number | null;
  size: number;
  truncated: boolean;
  execution: string | null;
  preview: string;
}

const COLUMNS = `m.id, m.uuid, m.session_key, m.at_ms, m.side, m.direction, m.peer, m.kind, m.method, m.jsonrpc_id, m.size, m.truncated,
  left(m.body, ${PREVIEW_CHARS}) AS preview, e.uuid AS execution`;
const NEWEST_FIRST = 'ORDER BY m.at_ms DESC, m.id DESC';

async function gatewayIdOf(db: pg.Pool, name: string): Promise<number | undefined> {
  return (await prepared<{ id: number }>(db, 'SELECT id FROM gateways WHERE name = $1', [name])).rows[0]?.id;
}

export async function pgListMessages(
  db: pg.Pool,
  filter: MessageFilter,
  page: { cursor?: string | null; limit?: number; scanLimit?: number } = {},
): Promise<{ items: MessageSummary[]; nextCursor: string | null }> {
  const limit = Math.max(1, Math.min(MAX_PAGE, Math.floor(page.limit ?? 200)));
  const cursor = parsePgCursor(page.cursor);
  const gatewayId = await gatewayIdOf(db, filter.gateway);
  if (gatewayId === undefined) return { items: [], nextCursor: null };
  const p = new Params();
  // The walk: conditions an index answers in (at_ms, id) order.
  const walk = [`m.gateway_id = ${p.add(gatewayId)}`];
  let walksMethod = false;
  let walksExecution = false;
  if (filter.executionId !== undefined && filter.session === undefined) {
    walk.push(`m.execution_uuid = ${p.add(filter.executionId)}`);
    walksExecution = true;
  } else if (filter.session !== undefined) {
    walk.push(filter.session === null ? 'm.session_key IS NULL' : `m.session_key = ${p.add(filter.session)}`);
  } else if (filter.method !== undefined) {
    walk.push(`m.method = ${p.add(filter.method)}`);
    walksMethod = true;
  }
  if (cursor) walk.push(`(m.at_ms, m.id) < (${p.add(cursor[0])}, ${p.add(cursor[1])})`);
  const walkValues = p.values.length; // the walk's placeholders are $1..$walkValues
  const residual: string[] = [];
  if (filter.executionId !== undefined && !walksExecution) residual.push(`m.execution_uuid = ${p.add(filter.executionId)}`);
  if (filter.method !== undefined && !walksMethod) residual.push(`m.method = ${p.add(filter.method)}`);
  if (filter.side) residual.push(`m.side = ${p.add(filter.side)}`);
  if (filter.direction) residual.push(`m.direction = ${p.add(filter.direction)}`);
  if (filter.kind) residual.push(`m.kind = ${p.add(filter.kind)}`);
  const excluded = excludedMethods(filter);
  if (excluded.length > 0) residual.push(`(m.method IS NULL OR m.method <> ALL(${p.add(excluded)}::text[]))`);
  // The same rule as SQLite's (HEALTH_PING in history/model/messages.ts); COALESCE: a NULL method is not a ping.
  if (filter.hideHealthPings && healthPingsPossible(filter)) residual.push(`NOT COALESCE(${HEALTH_PING}, FALSE)`);
  const search = filter.search?.trim();
  // LIKE's own escape character is the backslash; ILIKE: case-insensitive like SQLite's LIKE (for ASCII).
  if (search) residual.push(`m.body ILIKE ${p.add(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
  const where = walk.join(' AND ');

  if (residual.length === 0) {
    const sql = `SELECT ${COLUMNS} FROM messages m LEFT JOIN executions e ON e.uuid = m.execution_uuid
      WHERE ${where} ${NEWEST_FIRST} LIMIT ${p.add(limit + 1)}`;
    const rows = (await prepared<Row>(db, sql, p.values)).rows;
    const more = rows.length > limit;
    if (more) rows.pop();
    return { items: rows.map(toSummary), nextCursor: more ? cursorOf(rows[rows.length - 1]!) : null };
  }
  const scanLimit = Math.max(limit + 1, Math.floor(page.scanLimit ?? SCAN_LIMIT));
  const scan = p.add(scanLimit);
  const sql = `SELECT ${COLUMNS} FROM (SELECT * FROM messages m WHERE ${where} ${NEWEST_FIRST} LIMIT ${scan}) m
      LEFT JOIN executions e ON e.uuid = m.execution_uuid
    WHERE ${residual.join(' AND ')} ${NEWEST_FIRST} LIMIT ${p.add(limit + 1)}`;
  const rows = (await prepared<Row>(db, sql, p.values)).rows;
  if (rows.length > limit) {
    rows.pop();
    return { items: rows.map(toSummary), nextCursor: cursorOf(rows[rows.length - 1]!) };
  }
  // Fewer than a page: either the walk reached the end, or it read scanLimit rows and stopped at the last one.
  const last = await prepared<{ at_ms: string; id: string }>(
    db,
    `SELECT m.at_ms, m.id FROM messages m WHERE ${where} ${NEWEST_FIRST} OFFSET $${walkValues + 1} LIMIT 1`,
    [...p.values.slice(0, walkValues), scanLimit - 1],
  );
  const end = last.rows[0];
  return { items: rows.map(toSummary), nextCursor: end ? `${end.at_ms}:${end.id}` : null };
}

export async function pgGetMessage(db: pg.Pool, id: string): Promise<MessageDetail | undefined> {
  const row = (
    await prepared<Row & { gateway: string; body: string }>(
      db,
      `SELECT ${COLUMNS}, g.name AS gateway, m.body
       FROM messages m JOIN gateways g ON g.id = m.gateway_id LEFT JOIN executions e ON e.uuid = m.execution_uuid
       WHERE m.uuid = $1`,
      [id],
    )
  ).rows[0];
  return row ? { ...toSummary(row), gateway: row.gateway, body: row.body } : undefined;
}

/** The newest own message's time (traffic outside sessions), health pings left out as the SQLite query does. */
function ownLast(options: SessionListOptions): string {
  if (!options.hideHealthPings) return '(SELECT at_ms FROM messages WHERE gateway_id = $1 AND session_key IS NULL ORDER BY at_ms DESC, id DESC LIMIT 1)';
  return `(SELECT max(m.at_ms) FROM (SELECT at_ms, method, side, execution_uuid, kind, direction FROM messages
      WHERE gateway_id = $1 AND session_key IS NULL ORDER BY at_ms DESC, id DESC LIMIT ${OWN_ACTIVITY_SCAN}) m WHERE NOT COALESCE(${HEALTH_PING}, FALSE))`;
}

/**
 * The sessions of a gateway that have messages, most recently active first: distinct sessions found by
 * skipping through the session index (one seek per session), each with its newest message (one more seek).
 */
export async function pgListMessageSessions(db: pg.Pool, gateway: string, options: SessionListOptions = {}): Promise<MessageSessionSummary[]> {
  const gatewayId = await gatewayIdOf(db, gateway);
  if (gatewayId === undefined) return [];
  const rows = (
    await prepared<{ session_key: string | null; last_ms: string | null; started_at: string | null; record_json: string | null }>(
      db,
      `WITH RECURSIVE s(k) AS (
         SELECT (SELECT session_key FROM messages WHERE gateway_id = $1 AND session_key IS NOT NULL ORDER BY session_key LIMIT 1)
         UNION ALL
         SELECT (SELECT session_key FROM messages WHERE gateway_id = $1 AND session_key > s.k ORDER BY session_key LIMIT 1) FROM s WHERE s.k IS NOT NULL
       )
       SELECT s.k AS session_key,
         (SELECT at_ms FROM messages WHERE gateway_id = $1 AND session_key = s.k ORDER BY at_ms DESC, id DESC LIMIT 1) AS last_ms,
         se.started_at, se.record_json
       FROM s LEFT JOIN sessions se ON se.gateway_id = $1 AND se.session_key = (s.k COLLATE "default")
       WHERE s.k IS NOT NULL
       UNION ALL
       SELECT NULL, ${ownLast(options)}, NULL, NULL
       ORDER BY 1 NULLS LAST`,
      [gatewayId],
    )
  ).rows;
  const out: MessageSessionSummary[] = [];
  for (const r of rows) {
    if (r.last_ms === null) continue; // no message outside a session
    const row: MessageSessionSummary = { sessionId: r.session_key, lastAt: iso(r.last_ms) };
    if (r.session_key !== null && r.started_at !== null) {
      row.startedAt = r.started_at;
      const session = parse(r.record_json) as
        { clientInfo?: { name?: unknown; version?: unknown }; transport?: unknown; principal?: { id?: unknown } } | undefined;
      const client = session?.clientInfo;
      if (typeof client?.name === 'string') row.clientName = typeof client.version === 'string' ? `${client.name} ${client.version}` : client.name;
      if (typeof session?.transport === 'string' && session.transport !== '') row.transport = session.transport;
      if (typeof session?.principal?.id === 'string') row.principal = session.principal.id;
    }
    out.push(row);
  }
  // As the SQLite query: sessions in key order, the gateway's own last, then stably by last activity.
  out.sort((a, b) => (a.lastAt < b.lastAt ? 1 : a.lastAt > b.lastAt ? -1 : 0));
  return out.slice(0, MAX_SESSIONS);
}

/** Every method recorded for a gateway (the method filter's suggestions), by skipping through the method index. */
export async function pgMessageMethods(db: pg.Pool, gateway: string): Promise<string[]> {
  const gatewayId = await gatewayIdOf(db, gateway);
  if (gatewayId === undefined) return [];
  const rows = (
    await prepared<{ k: string }>(
      db,
      `WITH RECURSIVE s(k) AS (
         SELECT (SELECT method FROM messages WHERE gateway_id = $1 AND method IS NOT NULL ORDER BY method LIMIT 1)
         UNION ALL
         SELECT (SELECT method FROM messages WHERE gateway_id = $1 AND method > s.k ORDER BY method LIMIT 1) FROM s WHERE s.k IS NOT NULL
       )
       SELECT k FROM s WHERE k IS NOT NULL LIMIT ${MAX_METHODS}`,
      [gatewayId],
    )
  ).rows;
  return rows.map((r) => r.k);
}

function cursorOf(r: Row): string {
  return `${r.at_ms}:${r.id}`;
}

function toSummary(r: Row): MessageSummary {
  const s: MessageSummary = {
    id: r.uuid,
    key: cursorOf(r),
    at: iso(r.at_ms),
    side: r.side,
    direction: r.direction,
    kind: r.kind,
    size: r.size,
    truncated: r.truncated,
    preview: r.preview,
  };
  if (r.session_key !== null) s.sessionId = r.session_key;
  if (r.peer !== null) s.peer = r.peer;
  if (r.method !== null) s.method = r.method;
  if (r.jsonrpc_id !== null) s.jsonrpcId = r.jsonrpc_id;
  if (r.execution !== null) s.executionId = r.execution;
  return s;
}

function iso(ms: string | number): string {
  return new Date(Number(ms)).toISOString();
}

function parse(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
