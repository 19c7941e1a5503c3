// One execution in full: the ExecutionRecord with both chain traces rebuilt from its steps, its
// sink events, its session, and the replays made of it.
import type Database from 'better-sqlite3';
import type { ExecutionRecord } from '../../../../shared/trace/execution';
import { ExecutionReader, SESSION_SELECT, sessionFromRow } from '../sql/reader';
import { listSinkEvents } from './sink-events';
import { cachedStatement } from './statement-cache';
import type { ExecutionDetail } from '../../model/executions';

export type { ExecutionDetail };

const readers = new WeakMap<Database.Database, ExecutionReader>();

export function readerFor(db: Database.Database): ExecutionReader {
  let r = readers.get(db);
  if (!r) readers.set(db, (r = new ExecutionReader(db)));
  return r;
}

/** The record exactly as recorded (after redaction at rest), or undefined. */
export function getExecutionRecord(db: Database.Database, id: string): ExecutionRecord | undefined {
  return readerFor(db).byUuid(id);
}

export function getExecution(db: Database.Database, id: string): ExecutionDetail | undefined {
  const record = getExecutionRecord(db, id);
  if (!record) return undefined;
  const sinkEvents = listSinkEvents(db, { executionId: id }, { limit: 1000 }).items.reverse();
  const replayedBy = cachedStatement(
    db,
    'SELECT e.uuid FROM replays r JOIN executions e ON e.id = r.execution_id WHERE r.original_uuid = ? ORDER BY r.execution_id',
  )
    .pluck()
    .all(id) as string[];
  const detail: ExecutionDetail = { ...record, sinkEvents, replayedBy };
  if (record.sessionId !== undefined) {
    const row = cachedStatement(db, `${SESSION_SELECT} WHERE g.name = ? AND s.session_key = ?`).get(record.gateway, record.sessionId);
    if (row) detail.session = sessionFromRow(row as Parameters<typeof sessionFromRow>[0]);
  }
  return detail;
}
