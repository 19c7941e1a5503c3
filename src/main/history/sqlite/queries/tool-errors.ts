// The "tool error" badge of a Traffic page's rows: which of these executions returned a tools/call result
// with `isError: true`. Read from the stored response (shared/trace/tool-error.ts says why), only for the
// page's rows the chain let through: a blocked or failed execution has no tool result to look at.
import type Database from 'better-sqlite3';
import { isToolErrorResult, TOOL_ERROR_EVENT, TOOL_ERROR_OUTCOMES } from '../../../../shared/trace/tool-error';
import { LARGE_PAYLOAD_MARK } from '../sql/payload-size';
import { cachedStatement } from './statement-cache';

interface ResponseRow {
  uuid: string;
  bodies: string;
  response_returned: number;
}

export function toolErrorIds(db: Database.Database, ids: string[]): string[] {
  if (ids.length === 0) return [];
  const sql = `SELECT e.uuid, d.bodies, d.response_returned FROM executions e JOIN execution_details d ON d.execution_id = e.id
    WHERE e.uuid IN (${ids.map(() => '?').join(', ')}) AND e.event = ? AND e.outcome IN (${TOOL_ERROR_OUTCOMES.map(() => '?').join(', ')})
      AND d.response_returned IS NOT NULL`;
  const rows = cachedStatement(db, sql).all(...ids, TOOL_ERROR_EVENT, ...TOOL_ERROR_OUTCOMES) as ResponseRow[];
  const largePayload = cachedStatement(db, 'SELECT body FROM payloads WHERE id = ?').pluck();
  const out: string[] = [];
  for (const row of rows) {
    let text = row.bodies.split('\n')[row.response_returned];
    if (text?.startsWith(LARGE_PAYLOAD_MARK)) text = largePayload.get(Number(text.slice(LARGE_PAYLOAD_MARK.length))) as string | undefined;
    // Most results never mention isError: skip parsing them.
    if (text === undefined || !text.includes('"isError"')) continue;
    if (isToolErrorResult(TOOL_ERROR_EVENT, JSON.parse(text))) out.push(row.uuid);
  }
  return out;
}
