// An execution filter → SQL conditions on `executions e` (plus the search join). Names are
// resolved to ids first so that each condition is an equality on an indexed column, and every
// index ends in the time-ordered id: a filtered page is an index walk, newest first.
import type Database from 'better-sqlite3';
import { lowerKeyFor, upperKeyFor } from '../sql/execution-ids';
import { cachedStatement } from './statement-cache';
import { QueryError } from '../../model/query-error';
import { toFtsQuery } from './search-syntax';
import { toMs, type ExecutionFilter } from '../../model/filters';

// The filter is engine-neutral (model/filters.ts); re-exported beside the compiler that reads it.
export { toMs, type ExecutionFilter };

export interface CompiledFilter {
  /** FROM clause: executions e, joined with the search index when searching. */
  from: string;
  where: string[];
  params: unknown[];
  /** The column that orders pages: e.id, or the search index's rowid (the same value). */
  key: string;
  /** True when a name in the filter matches nothing: the answer is empty without a query. */
  empty: boolean;
}

const OUTCOMES = new Set(['allow', 'blocked', 'mutated', 'error']);

function list<T>(v: T | T[] | undefined): T[] {
  return v === undefined ? [] : (Array.isArray(v) ? v : [v]).filter((x) => x !== '' && x !== null && x !== undefined);
}

function equality(column: string, values: unknown[], where: string[], params: unknown[]): void {
  if (values.length === 1) where.push(`${column} = ?`);
  else where.push(`${column} IN (${values.map(() => '?').join(', ')})`);
  params.push(...values);
}

export function interceptorIds(db: Database.Database, spec: string): number[] {
  return cachedStatement(db, `SELECT id FROM interceptors WHERE server || '/' || name = ? OR name = ?`).pluck().all(spec, spec) as number[];
}

export function gatewayIds(db: Database.Database, names: string[]): number[] {
  const st = cachedStatement(db, 'SELECT id FROM gateways WHERE name = ?').pluck();
  return names.map((n) => st.get(n) as number | undefined).filter((id): id is number => id !== undefined);
}

export function compileFilter(db: Database.Database, filter: ExecutionFilter): CompiledFilter {
  const where: string[] = [];
  const params: unknown[] = [];
  let empty = false;
  let from = 'executions e';
  let key = 'e.id';

  if (filter.search !== undefined && filter.search.trim() !== '') {
    const match = toFtsQuery(filter.search);
    if (match === undefined) empty = true;
    else {
      // Driven by the search index, newest first: its rowid is the execution id.
      from = 'executions_fts f JOIN executions e ON e.id = f.rowid';
      key = 'f.rowid';
      where.push('executions_fts MATCH ?');
      params.push(match);
    }
  }
  const gateways = list(filter.gateway);
  if (gateways.length > 0) {
    const ids = gatewayIds(db, gateways);
    if (ids.length === 0) empty = true;
    else equality('e.gateway_id', ids, where, params);
  }
  // This store records no host (one machine, one file): a host filter matches none of its rows.
  if (list(filter.host).length > 0) empty = true;
  const events = list(filter.event);
  if (events.length > 0) equality('e.event', events, where, params);
  const targets = list(filter.target);
  if (targets.length > 0) equality('e.target', targets, where, params);
  const outcomes = list(filter.outcome);
  for (const o of outcomes) if (!OUTCOMES.has(o)) throw new QueryError(`outcome "${o}" is not one of allow, blocked, mutated, error`);
  if (outcomes.length > 0) equality('e.outcome', outcomes, where, params);
  if (filter.blockedBy) {
    const ids = interceptorIds(db, filter.blockedBy);
    if (ids.length === 0) empty = true;
    else equality('e.blocked_interceptor_id', ids, where, params);
  }
  if (filter.interceptor) {
    const ids = interceptorIds(db, filter.interceptor);
    if (ids.length === 0) empty = true;
    else {
      where.push(`EXISTS (SELECT 1 FROM steps s WHERE s.execution_id = e.id AND s.interceptor_id IN (${ids.map(() => '?').join(', ')}) AND s.skipped IS NULL)`);
      params.push(...ids);
    }
  }
  if (filter.sessionId) {
    where.push('e.session_key = ?');
    params.push(filter.sessionId);
  }
  if (filter.since !== undefined && filter.since !== '') {
    const ms = toMs(filter.since, 'since');
    // The key range narrows the walk; the started_ms test is exact.
    where.push(`${key} >= ?`, 'e.started_ms >= ?');
    params.push(lowerKeyFor(ms), ms);
  }
  if (filter.until !== undefined && filter.until !== '') {
    const ms = toMs(filter.until, 'until');
    where.push(`${key} < ?`, 'e.started_ms < ?');
    params.push(upperKeyFor(ms), ms);
  }
  return { from, where, params, key, empty };
}
