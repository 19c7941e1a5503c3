// Export to JSONL (format in line-schema.ts). Deterministic: the same data gives the same bytes,
// so export → import into a fresh file → export reproduces the file exactly.
import type Database from 'better-sqlite3';
import { EXECUTION_COLUMNS, EXECUTION_FROM_BY_KEY, SESSION_SELECT, sessionFromRow, type ExecutionRow } from '../sql/reader';
import { readerFor } from '../queries/execution-detail';
import { compileFilter, type ExecutionFilter } from '../queries/filters';
import { cachedStatement } from '../queries/statement-cache';
import { EXPORT_FORMAT, EXPORT_VERSION } from '../../model/portability/line-schema';

const PAGE = 500;

interface GatewayRow {
  name: string;
  config_json: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Yields the lines of an export (without newlines), oldest execution first. With a filter, only
 * the matching executions and the gateways and sessions they belong to.
 */
export function* exportLines(db: Database.Database, filter?: ExecutionFilter): Generator<string> {
  yield JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION });
  const filtered = filter !== undefined && Object.values(filter).some((v) => v !== undefined && v !== '');
  const keys = filtered ? matchingKeys(db, filter) : undefined;
  let gatewayNames: Set<string> | undefined;
  let sessionKeys: Set<string> | undefined;
  if (keys) {
    gatewayNames = new Set();
    sessionKeys = new Set();
    const st = cachedStatement(db, 'SELECT g.name, e.session_key FROM executions e JOIN gateways g ON g.id = e.gateway_id WHERE e.id = ?');
    for (const k of keys) {
      const row = st.get(k) as { name: string; session_key: string | null } | undefined;
      if (!row) continue;
      gatewayNames.add(row.name);
      if (row.session_key !== null) sessionKeys.add(`${row.name}\u0000${row.session_key}`);
    }
  }

  for (const g of db.prepare('SELECT name, config_json, created_at, updated_at FROM gateways ORDER BY id').all() as GatewayRow[]) {
    if (gatewayNames && !gatewayNames.has(g.name)) continue;
    const line: Record<string, unknown> = { type: 'gateway', name: g.name };
    if (g.config_json !== null) line.config = JSON.parse(g.config_json);
    line.createdAt = g.created_at;
    line.updatedAt = g.updated_at;
    yield JSON.stringify(line);
  }
  for (const row of db.prepare(`${SESSION_SELECT} ORDER BY s.id`).all() as Parameters<typeof sessionFromRow>[0][]) {
    if (sessionKeys && !sessionKeys.has(`${row.gateway}\u0000${row.session_key}`)) continue;
    yield JSON.stringify({ type: 'session', session: sessionFromRow(row) });
  }

  const reader = readerFor(db);
  const page = cachedStatement(db, `SELECT ${EXECUTION_COLUMNS} FROM ${EXECUTION_FROM_BY_KEY} WHERE e.id > ? ORDER BY e.id LIMIT ${PAGE}`);
  const one = cachedStatement(db, `SELECT ${EXECUTION_COLUMNS} FROM ${EXECUTION_FROM_BY_KEY} WHERE e.id = ?`);
  if (keys) {
    for (const k of keys) {
      const row = one.get(k) as ExecutionRow | undefined;
      if (row) yield JSON.stringify({ type: 'execution', execution: reader.fromRow(row) });
    }
    return;
  }
  // Executions recorded while the export runs (keys above this one) belong to the next export.
  const last = (db.prepare('SELECT max(id) FROM executions').pluck().get() as number | null) ?? null;
  if (last === null) return;
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const rows = page.all(after) as ExecutionRow[];
    for (const row of rows) {
      if (row.id > last) return;
      yield JSON.stringify({ type: 'execution', execution: reader.fromRow(row) });
    }
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

function matchingKeys(db: Database.Database, filter: ExecutionFilter): number[] {
  const c = compileFilter(db, filter);
  if (c.empty) return [];
  const sql = `SELECT ${c.key} FROM ${c.from} ${c.where.length > 0 ? `WHERE ${c.where.join(' AND ')}` : ''} ORDER BY ${c.key}`;
  return cachedStatement(db, sql)
    .pluck()
    .all(...c.params) as number[];
}

/** The whole export as one string (API use; the CLI streams exportLines instead). */
export function exportToString(db: Database.Database, filter?: ExecutionFilter): { jsonl: string; count: number } {
  let count = 0;
  const lines: string[] = [];
  for (const line of exportLines(db, filter)) {
    if (line.startsWith('{"type":"execution"')) count++;
    lines.push(line);
  }
  return { jsonl: `${lines.join('\n')}\n`, count };
}
