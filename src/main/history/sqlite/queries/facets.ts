// Filter suggestions for the Traffic and Sinks screens, and the audit-mode badge of a page's rows.
import type Database from 'better-sqlite3';
import type { Facets } from '../../../../shared/api/models-traffic';
import { cachedStatement } from './statement-cache';

const MAX_TARGET_FACETS = 300;

export function facets(db: Database.Database): Facets {
  // A loose index scan: one index seek per distinct value instead of a walk over every execution.
  const distinct = (column: string, limit: number) =>
    cachedStatement(
      db,
      `WITH RECURSIVE v(x) AS (SELECT (SELECT min(${column}) FROM executions WHERE ${column} IS NOT NULL)
         UNION ALL SELECT (SELECT min(${column}) FROM executions WHERE ${column} > v.x) FROM v WHERE v.x IS NOT NULL)
       SELECT x FROM v WHERE x IS NOT NULL LIMIT ${limit}`,
    )
      .pluck()
      .all() as string[];
  return {
    gateways: cachedStatement(db, 'SELECT name FROM gateways ORDER BY name').pluck().all() as string[],
    // One machine, one file: SQLite rows carry no host (the Host chip is offered for shared histories only).
    hosts: [],
    events: distinct('event', 200),
    targets: distinct('target', MAX_TARGET_FACETS),
    interceptors: cachedStatement(db, `SELECT server || '/' || name FROM interceptors ORDER BY server, name`).pluck().all() as string[],
    // One seek into sink_events_by_interceptor per interceptor: validators and mutators never appear there.
    sinks: cachedStatement(
      db,
      `SELECT server || '/' || name FROM interceptors i WHERE EXISTS (SELECT 1 FROM sink_events s WHERE s.interceptor_id = i.id) ORDER BY server, name`,
    )
      .pluck()
      .all() as string[],
  };
}

/** Which of these executions ran an audit-mode (shadow) interceptor: one primary-key probe each. */
export function shadowIds(db: Database.Database, ids: string[]): string[] {
  if (ids.length === 0) return [];
  const sql = `SELECT e.uuid FROM executions e WHERE e.uuid IN (${ids.map(() => '?').join(', ')})
    AND EXISTS (SELECT 1 FROM steps s WHERE s.execution_id = e.id AND s.shadow = 1 AND s.skipped IS NULL)`;
  return cachedStatement(db, sql)
    .pluck()
    .all(...ids) as string[];
}
