// The execution filter both engines compile (SQLite: sqlite/queries/filters.ts, PostgreSQL:
// postgres/filters.ts), and the one date rule they share: a bound is ISO 8601 or epoch milliseconds.
import type { ExecutionOutcome } from '../../../shared/trace/execution';
import { QueryError } from './query-error';

export interface ExecutionFilter {
  gateway?: string | string[];
  /** The host whose gateway recorded it (shared PostgreSQL histories record one; SQLite rows carry none). */
  host?: string | string[];
  /** The method / interceptor event, e.g. tools/call. */
  event?: string | string[];
  /** Tool name, resource uri or prompt name. */
  target?: string | string[];
  outcome?: ExecutionOutcome | ExecutionOutcome[];
  /** Executions in which this interceptor ran (not skipped): `server/name`, or a bare name on any server. */
  interceptor?: string;
  /** Executions blocked by this interceptor (`server/name` or name). */
  blockedBy?: string;
  sessionId?: string;
  /** ISO 8601 or epoch ms; since is inclusive, until exclusive. */
  since?: string | number;
  until?: string | number;
  /** Free text searched in the payloads (words must all appear; `word*` is a prefix). */
  search?: string;
}

export function toMs(value: string | number, what: string): number {
  const ms = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) throw new QueryError(`${what} "${value}" is not a date: use ISO 8601 (2025-01-31T12:00:00Z) or epoch milliseconds`);
  return ms;
}
