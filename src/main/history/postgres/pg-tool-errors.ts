// The "tool error" badge of a Traffic page's rows on PostgreSQL: which of these executions returned a
// tools/call result with `isError: true`, read from the recorded ExecutionRecord (record_json), like
// SQLite's history/sqlite/queries/tool-errors.ts reads its stored response. No column: every history already
// recorded shows it.
import type pg from 'pg';
import { TOOL_ERROR_EVENT, TOOL_ERROR_OUTCOMES } from '../../../shared/trace/tool-error';
import { prepared } from './statements';

export async function pgToolErrorIds(db: pg.Pool, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  // The LIKE skips parsing the JSON of the (many) results that never mention isError.
  const r = await prepared<{ uuid: string }>(
    db,
    `SELECT e.uuid FROM executions e WHERE e.uuid = ANY($1::text[]) AND e.event = $2 AND e.outcome = ANY($3::text[])
       AND e.record_json LIKE '%"isError"%' AND (e.record_json::jsonb -> 'responseReturned' -> 'isError') = 'true'::jsonb`,
    [ids, TOOL_ERROR_EVENT, [...TOOL_ERROR_OUTCOMES]],
  );
  return r.rows.map((x) => x.uuid);
}
