// The Messages view's reads: a gateway's sessions that have messages, a filtered page of messages
// (newest first, keyset-paginated by key), one message with its whole text, and the methods seen (the
// filter's suggestions). Each page is one index walk chosen here, not by the planner's guess: a
// session's messages walk messages_by_session, a method across the gateway messages_by_method, and
// everything else the primary key itself (time order), so a million messages page like a thousand.
import type Database from 'better-sqlite3';
import type { MessageDirection, MessageKind, MessageSide } from '../../../../shared/trace/messages';
import { parseCursor } from './list-executions';
import { cachedStatement } from './statement-cache';
import {
  excludedMethods,
  healthPingsPossible,
  HEALTH_PING,
  MAX_METHODS,
  MAX_PAGE,
  MAX_SESSIONS,
  PREVIEW_CHARS,
  SCAN_LIMIT,
  OWN_ACTIVITY_SCAN,
  type MessageDetail,
  type MessageFilter,
  type MessageSessionSummary,
  type MessageSummary,
  type SessionListOptions,
} from '../../model/messages';

export type { MessageDetail, MessageFilter, MessageSessionSummary, MessageSummary };

interface Row {
  key: number;
  uuid: string;
  session_key: string | null;
  at_ms: number;
  side: MessageSide;
  direction: MessageDirection;
  peer: string | null;
  kind: MessageKind;
  method: string | null;
  jsonrpc_id: string | number | null;
  size: number;
  truncated: number;
  execution: string | null;
  preview: string;
}

function gatewayIdOf(db: Database.Database, name: string): number | undefined {
  return cachedStatement(db, 'SELECT id FROM gateways WHERE name = ?').pluck().get(name) as number | undefined;
}

export function listMessages(
  db: Database.Database,
  filter: MessageFilter,
  page: { cursor?: string | null; limit?: number; scanLimit?: number } = {},
): { items: MessageSummary[]; nextCursor: string | null } {
  const limit = Math.max(1, Math.min(MAX_PAGE, Math.floor(page.limit ?? 200)));
  const gatewayId = gatewayIdOf(db, filter.gateway);
  if (gatewayId === undefined) return { items: [], nextCursor: null };
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    where.push(clause);
    params.push(value);
  };
  let index: string;
  if (filter.executionId !== undefined && filter.session === undefined) {
    index = 'INDEXED BY messages_by_execution';
    where.push('m.gateway_id = ?');
    params.push(gatewayId);
  } else if (filter.session !== undefined) {
    index = 'INDEXED BY messages_by_session';
    where.push('m.gateway_id = ?', filter.session === null ? 'm.session_key IS NULL' : 'm.session_key = ?');
    params.push(gatewayId);
    if (filter.session !== null) params.push(filter.session);
  } else if (filter.method !== undefined) {
    index = 'INDEXED BY messages_by_method';
    where.push('m.gateway_id = ?', 'm.method = ?');
    params.push(gatewayId, filter.method);
  } else {
    // The primary key in time order; `+` keeps the gateway's term off an index that would need a sort.
    index = '';
    where.push('+m.gateway_id = ?');
    params.push(gatewayId);
  }
  // What the index walk cannot answer is checked on the rows it reads: those rows are bounded per call
  // (scanLimit), so a filter that matches little or nothing in a big history never holds the core's one
  // thread for long; the answer then says where the walk stopped and the next call goes on from there.
  const residual: string[] = [];
  const residualParams: unknown[] = [];
  const check = (clause: string, value: unknown) => {
    residual.push(clause);
    residualParams.push(value);
  };
  if (filter.executionId !== undefined) {
    if (index === 'INDEXED BY messages_by_execution') add('m.execution_uuid = ?', filter.executionId);
    else check('m.execution_uuid = ?', filter.executionId);
  }
  // Unless its index walks the method, the method is checked on the rows read (a session's, an execution's).
  if (filter.method !== undefined && index !== 'INDEXED BY messages_by_method') check('m.method = ?', filter.method);
  if (filter.side) check('m.side = ?', filter.side);
  if (filter.direction) check('m.direction = ?', filter.direction);
  if (filter.kind) check('m.kind = ?', filter.kind);
  const excluded = excludedMethods(filter);
  if (excluded.length > 0) {
    residual.push(`(m.method IS NULL OR m.method NOT IN (${excluded.map(() => '?').join(', ')}))`);
    residualParams.push(...excluded);
  }
  // A row with a NULL method is not a ping: COALESCE keeps NOT from turning its NULL into "leave out".
  if (filter.hideHealthPings && healthPingsPossible(filter)) residual.push(`NOT COALESCE(${HEALTH_PING}, FALSE)`);
  const search = filter.search?.trim();
  if (search) check(`m.body LIKE ? ESCAPE '\\'`, `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const cursor = parseCursor(page.cursor);
  if (cursor !== undefined) add('m.id < ?', cursor);
  const columns = `m.id AS key, m.uuid, m.session_key, m.at_ms, m.side, m.direction, m.peer, m.kind, m.method, m.jsonrpc_id, m.size,
      m.truncated, substr(m.body, 1, ${PREVIEW_CHARS}) AS preview, e.uuid AS execution`;
  const walk = `SELECT m.* FROM messages m ${index} WHERE ${where.join(' AND ')} ORDER BY m.id DESC`;
  if (residual.length === 0) {
    const sql = `SELECT ${columns} FROM messages m ${index} LEFT JOIN executions e ON e.uuid = m.execution_uuid
      WHERE ${where.join(' AND ')} ORDER BY m.id DESC LIMIT ?`;
    const rows = cachedStatement(db, sql).all(...params, limit + 1) as Row[];
    const more = rows.length > limit;
    if (more) rows.pop();
    return { items: rows.map(toSummary), nextCursor: more ? String(rows[rows.length - 1]!.key) : null };
  }
  const scanLimit = Math.max(limit + 1, Math.floor(page.scanLimit ?? SCAN_LIMIT));
  const sql = `SELECT ${columns} FROM (${walk} LIMIT ?) m LEFT JOIN executions e ON e.uuid = m.execution_uuid
    WHERE ${residual.join(' AND ')} ORDER BY m.id DESC LIMIT ?`;
  const rows = cachedStatement(db, sql).all(...params, scanLimit, ...residualParams, limit + 1) as Row[];
  if (rows.length > limit) {
    rows.pop();
    return { items: rows.map(toSummary), nextCursor: String(rows[rows.length - 1]!.key) };
  }
  // Fewer than a page: either the walk reached the end, or it read scanLimit rows and stopped.
  const span = cachedStatement(
    db,
    `SELECT count(*) AS n, min(id) AS floor FROM (SELECT m.id FROM messages m ${index} WHERE ${where.join(' AND ')} ORDER BY m.id DESC LIMIT ?)`,
  ).get(...params, scanLimit) as { n: number; floor: number | null };
  return { items: rows.map(toSummary), nextCursor: span.n >= scanLimit && span.floor !== null ? String(span.floor) : null };
}

export function getMessage(db: Database.Database, id: string): MessageDetail | undefined {
  const row = cachedStatement(
    db,
    `SELECT m.id AS key, m.uuid, g.name AS gateway, m.session_key, m.at_ms, m.side, m.direction, m.peer, m.kind, m.method, m.jsonrpc_id,
       m.size, m.truncated, substr(m.body, 1, ${PREVIEW_CHARS}) AS preview, m.body, e.uuid AS execution
     FROM messages m JOIN gateways g ON g.id = m.gateway_id LEFT JOIN executions e ON e.uuid = m.execution_uuid
     WHERE m.uuid = ?`,
  ).get(id) as (Row & { gateway: string; body: string }) | undefined;
  return row ? { ...toSummary(row), gateway: row.gateway, body: row.body } : undefined;
}

/**
 * The sessions of a gateway that have messages, most recently active first. Distinct sessions are found
 * by skipping through the session index (one seek per session, not a walk over every message).
 */
export function listMessageSessions(db: Database.Database, gateway: string, options: SessionListOptions = {}): MessageSessionSummary[] {
  const gatewayId = gatewayIdOf(db, gateway);
  if (gatewayId === undefined) return [];
  const keys = cachedStatement(
    db,
    `WITH RECURSIVE s(k) AS (
       SELECT (SELECT session_key FROM messages INDEXED BY messages_by_session WHERE gateway_id = @g AND session_key IS NOT NULL ORDER BY session_key LIMIT 1)
       UNION ALL
       SELECT (SELECT session_key FROM messages INDEXED BY messages_by_session WHERE gateway_id = @g AND session_key > s.k ORDER BY session_key LIMIT 1)
       FROM s WHERE s.k IS NOT NULL
     )
     SELECT k FROM s WHERE k IS NOT NULL`,
  )
    .pluck()
    .all({ g: gatewayId }) as string[];
  // One seek per session: the newest message of each (the list is ordered by last activity).
  const last = cachedStatement(
    db,
    `SELECT at_ms FROM messages INDEXED BY messages_by_session WHERE gateway_id = @g AND session_key = @s ORDER BY id DESC LIMIT 1`,
  ).pluck();
  // The gateway's own traffic: without health pings (every 15 s per interceptor server, they would date it
  // "just now" forever), its newest other message among the newest OWN_ACTIVITY_SCAN.
  const ownLast = options.hideHealthPings
    ? cachedStatement(
        db,
        // Only the columns the rule reads, which come before the body: no overflow page is read.
        `SELECT max(at_ms) FROM (SELECT at_ms, method, side, execution_uuid, kind, direction FROM messages INDEXED BY messages_by_session
           WHERE gateway_id = @g AND session_key IS NULL ORDER BY id DESC LIMIT ${OWN_ACTIVITY_SCAN}) m WHERE NOT COALESCE(${HEALTH_PING}, FALSE)`,
      ).pluck()
    : cachedStatement(
        db,
        `SELECT at_ms FROM messages INDEXED BY messages_by_session WHERE gateway_id = @g AND session_key IS NULL ORDER BY id DESC LIMIT 1`,
      ).pluck();
  const info = cachedStatement(db, 'SELECT started_at, client_info_json, principal_json, transport FROM sessions WHERE gateway_id = ? AND session_key = ?');
  const out: MessageSessionSummary[] = [];
  for (const key of keys) {
    const row: MessageSessionSummary = { sessionId: key, lastAt: iso(last.get({ g: gatewayId, s: key }) as number) };
    const i = info.get(gatewayId, key) as
      { started_at: string; client_info_json: string | null; principal_json: string | null; transport: string | null } | undefined;
    if (i) {
      row.startedAt = i.started_at;
      const client = parse(i.client_info_json) as { name?: unknown; version?: unknown } | undefined;
      if (typeof client?.name === 'string') row.clientName = typeof client.version === 'string' ? `${client.name} ${client.version}` : client.name;
      if (i.transport) row.transport = i.transport;
      const principal = parse(i.principal_json) as { id?: unknown; type?: unknown } | undefined;
      if (typeof principal?.id === 'string') row.principal = principal.id;
    }
    out.push(row);
  }
  const own = ownLast.get({ g: gatewayId }) as number | null | undefined;
  if (own !== undefined && own !== null) out.push({ sessionId: null, lastAt: iso(own) });
  out.sort((a, b) => (a.lastAt < b.lastAt ? 1 : a.lastAt > b.lastAt ? -1 : 0));
  return out.slice(0, MAX_SESSIONS);
}

/** Every method recorded for a gateway (the method filter's suggestions), by skipping through the method index. */
export function messageMethods(db: Database.Database, gateway: string): string[] {
  const gatewayId = gatewayIdOf(db, gateway);
  if (gatewayId === undefined) return [];
  return cachedStatement(
    db,
    `WITH RECURSIVE s(k) AS (
       SELECT (SELECT method FROM messages INDEXED BY messages_by_method WHERE gateway_id = @g AND method IS NOT NULL ORDER BY method LIMIT 1)
       UNION ALL
       SELECT (SELECT method FROM messages INDEXED BY messages_by_method WHERE gateway_id = @g AND method > s.k ORDER BY method LIMIT 1)
       FROM s WHERE s.k IS NOT NULL
     )
     SELECT k FROM s WHERE k IS NOT NULL LIMIT ${MAX_METHODS}`,
  )
    .pluck()
    .all({ g: gatewayId }) as string[];
}

function toSummary(r: Row): MessageSummary {
  const s: MessageSummary = {
    id: r.uuid,
    key: String(r.key),
    at: iso(r.at_ms),
    side: r.side,
    direction: r.direction,
    kind: r.kind,
    size: r.size,
    truncated: r.truncated === 1,
    preview: r.preview,
  };
  if (r.session_key !== null) s.sessionId = r.session_key;
  if (r.peer !== null) s.peer = r.peer;
  if (r.method !== null) s.method = r.method;
  if (r.jsonrpc_id !== null) s.jsonrpcId = r.jsonrpc_id;
  if (r.execution !== null) s.executionId = r.execution;
  return s;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function parse(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
