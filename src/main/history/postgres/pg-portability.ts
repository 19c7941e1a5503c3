// Export and import on PostgreSQL, in the JSONL format of the SQLite store (store/portability), so a
// history moves between the two engines either way. Import is all or nothing (one transaction) and
// obeys the same rules as recording: redaction at rest, secrets removed from gateway configs,
// executions already present (same id) skipped.
import type pg from 'pg';
import type { ExecutionRecord, SessionRecord } from '../../../shared/trace/execution';
import { withoutConfigSecrets } from '../../../shared/config/secrets';
import type { ExecutionFilter } from '../model/filters';
import { encodeExecution, encodeGateway, encodeSession } from '../model/encode/encode';
import { EXPORT_FORMAT, EXPORT_VERSION } from '../model/portability/line-schema';
import { ImportError, parseExportLines, type ImportOptions, type ImportResult } from '../model/portability/parse-export-lines';
import { DEFAULT_MAX_LINE_BYTES, stringLines } from '../model/portability/line-reader';
import { IdCache, insertItems, internNames, type StoredPgItem } from './batch-insert';
import { compilePgFilter, whereClause } from './filters';
import { Params, prepared } from './statements';

const PAGE = 500;

export async function* pgExportLines(db: pg.Pool, filter?: ExecutionFilter): AsyncGenerator<string> {
  yield JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION });
  const filtered = filter !== undefined && Object.values(filter).some((v) => v !== undefined && v !== '');
  const p = new Params();
  const c = filtered ? compilePgFilter(filter, p) : { where: [], empty: false };
  if (c.empty) return;
  const matching = `SELECT e.* FROM executions e ${whereClause(c.where)}`;
  const gateways = await prepared<{ name: string; config_json: string | null; created_at: string; updated_at: string }>(
    db,
    filtered
      ? `SELECT name, config_json, created_at, updated_at FROM gateways WHERE id IN (SELECT gateway_id FROM (${matching}) m) ORDER BY id`
      : 'SELECT name, config_json, created_at, updated_at FROM gateways ORDER BY id',
    p.values,
  );
  for (const g of gateways.rows) {
    const line: Record<string, unknown> = { type: 'gateway', name: g.name };
    if (g.config_json !== null) line.config = JSON.parse(g.config_json);
    line.createdAt = g.created_at;
    line.updatedAt = g.updated_at;
    yield JSON.stringify(line);
  }
  const sessions = await prepared<{ record_json: string }>(
    db,
    filtered
      ? `SELECT s.record_json FROM sessions s WHERE (s.gateway_id, s.session_key) IN (SELECT gateway_id, session_key FROM (${matching}) m) ORDER BY s.id`
      : 'SELECT record_json FROM sessions ORDER BY id',
    p.values,
  );
  for (const s of sessions.rows) yield `{"type":"session","session":${s.record_json}}`;
  // Executions recorded while the export runs (keys above the last one now) belong to the next export.
  const last = (await prepared<{ m: string | null }>(db, 'SELECT max(id) AS m FROM executions')).rows[0]?.m;
  if (last === null || last === undefined) return;
  let after: [number, string] = [Number.MIN_SAFE_INTEGER, '0'];
  const where = [...c.where, `e.id <= ${p.add(last)}`];
  const a = p.add(null);
  const b = p.add(null);
  where.push(`(e.started_ms, e.id) > (${a}::bigint, ${b}::bigint)`);
  const sql = `SELECT e.id, e.started_ms, e.record_json FROM executions e ${whereClause(where)} ORDER BY e.started_ms, e.id LIMIT ${PAGE}`;
  for (;;) {
    const values = [...p.values];
    values[values.length - 2] = after[0];
    values[values.length - 1] = after[1];
    const rows = (await prepared<{ id: string; started_ms: string; record_json: string }>(db, sql, values)).rows;
    for (const row of rows) yield `{"type":"execution","execution":${row.record_json}}`;
    if (rows.length < PAGE) return;
    const tail = rows[rows.length - 1]!;
    after = [Number(tail.started_ms), tail.id];
  }
}

export async function pgImportFromString(db: pg.Pool, text: string, options: ImportOptions = {}, host: string | null = null): Promise<ImportResult> {
  const result: ImportResult = { executions: 0, duplicates: 0, sessions: 0, gateways: 0 };
  const items: StoredPgItem[] = [];
  for (const { lineNo, line } of parseExportLines(stringLines(text, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES))) {
    try {
      if (line.type === 'gateway') {
        const config = line.config === undefined ? undefined : withoutConfigSecrets(line.config);
        items.push({ ...encodeGateway(line.name, config, line.updatedAt), createdAt: line.createdAt });
        result.gateways++;
      } else if (line.type === 'session') {
        items.push({ ...encodeSession(line.session as SessionRecord), json: JSON.stringify(line.session) });
        result.sessions++;
      } else {
        const raw = line.execution as unknown as ExecutionRecord;
        const record = options.redactor ? options.redactor.execution(raw) : raw;
        items.push({ ...encodeExecution(record), json: JSON.stringify(record) });
      }
    } catch (err) {
      throw new ImportError(lineNo, (err as Error).message);
    }
  }
  const cache = new IdCache();
  const client = await db.connect();
  try {
    await internNames(client, items, host, cache);
    await client.query('BEGIN');
    try {
      for (let i = 0; i < items.length; i += PAGE) {
        const r = await insertItems(client, items.slice(i, i + PAGE), host, cache);
        result.executions += r.inserted;
        result.duplicates += r.duplicates;
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  } finally {
    client.release();
  }
  return result;
}
