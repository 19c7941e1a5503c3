// An execution filter → PostgreSQL conditions on `executions e`, with the same meaning as the SQLite
// store's (history/sqlite/queries/filters.ts): names are matched through their tables, every condition is an
// equality (or a search) that an index ordered by (started_ms, id) serves newest first.
import type { ExecutionFilter } from '../model/filters';
import { toMs } from '../model/filters';
import { QueryError } from '../model/query-error';
import type { Params } from './statements';
import { toTsQuery } from './search-words';

const OUTCOMES = new Set(['allow', 'blocked', 'mutated', 'error']);

function list<T>(v: T | T[] | undefined): T[] {
  return v === undefined ? [] : (Array.isArray(v) ? v : [v]).filter((x) => x !== '' && x !== null && x !== undefined);
}

function equality(column: string, values: unknown[], p: Params): string {
  return values.length === 1 ? `${column} = ${p.add(values[0])}` : `${column} = ANY(${p.add(values)})`;
}

/** Interceptor ids by `server/name` or a bare name, as a subquery. */
export function interceptorSubquery(spec: string, p: Params): string {
  const x = p.add(spec);
  return `(SELECT id FROM interceptors WHERE server || '/' || name = ${x} OR name = ${x})`;
}

/** Conditions (ANDed) for the filter, or `empty` when it can match nothing (a search with no word). */
export function compilePgFilter(filter: ExecutionFilter, p: Params): { where: string[]; empty: boolean; searching: boolean } {
  const where: string[] = [];
  let empty = false;
  let searching = false;
  if (filter.search !== undefined && filter.search.trim() !== '') {
    const q = toTsQuery(filter.search);
    if (q === undefined) empty = true;
    else {
      where.push(`e.search @@ ${p.add(q)}::tsquery`);
      searching = true;
    }
  }
  const gateways = list(filter.gateway);
  if (gateways.length > 0) where.push(`e.gateway_id IN (SELECT id FROM gateways WHERE ${equality('name', gateways, p)})`);
  const hosts = list(filter.host);
  if (hosts.length > 0) where.push(equality('e.host', hosts, p));
  const events = list(filter.event);
  if (events.length > 0) where.push(equality('e.event', events, p));
  const targets = list(filter.target);
  if (targets.length > 0) where.push(equality('e.target', targets, p));
  const outcomes = list(filter.outcome);
  for (const o of outcomes) if (!OUTCOMES.has(o)) throw new QueryError(`outcome "${o}" is not one of allow, blocked, mutated, error`);
  if (outcomes.length > 0) where.push(equality('e.outcome', outcomes, p));
  if (filter.blockedBy) where.push(`e.blocked_interceptor_id IN ${interceptorSubquery(filter.blockedBy, p)}`);
  if (filter.interceptor) {
    where.push(
      `EXISTS (SELECT 1 FROM steps s WHERE s.execution_id = e.id AND s.skipped IS NULL AND s.interceptor_id IN ${interceptorSubquery(filter.interceptor, p)})`,
    );
  }
  if (filter.sessionId) where.push(`e.session_key = ${p.add(filter.sessionId)}`);
  if (filter.since !== undefined && filter.since !== '') where.push(`e.started_ms >= ${p.add(toMs(filter.since, 'since'))}`);
  if (filter.until !== undefined && filter.until !== '') where.push(`e.started_ms < ${p.add(toMs(filter.until, 'until'))}`);
  return { where, empty, searching };
}

export const whereClause = (where: string[]) => (where.length > 0 ? `WHERE ${where.join(' AND ')}` : '');

/** A page cursor: `<started_ms>:<id>` of the last row seen. */
export function parsePgCursor(cursor: string | null | undefined): [number, string] | undefined {
  if (cursor === undefined || cursor === null || cursor === '') return undefined;
  const m = /^(-?\d+):(\d+)$/.exec(cursor);
  if (!m) throw new QueryError(`cursor "${cursor}" is not one this store handed out; start again without a cursor`);
  return [Number(m[1]), m[2]!];
}
