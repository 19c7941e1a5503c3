// What a Traffic page and an execution's detail are, whichever engine answers: the summary row, the
// keyset page, its options, and the full execution with its sink events, replays and session.
import type { ExecutionOutcome, ExecutionRecord, SessionRecord } from '../../../shared/trace/execution';
import type { SinkEvent } from './sink-events';

export interface ExecutionSummary {
  id: string;
  gateway: string;
  /** The host whose gateway recorded it (a shared PostgreSQL history records it; SQLite does not). */
  host?: string;
  sessionId?: string;
  event: string;
  target?: string;
  startedAt: string;
  durationMs: number;
  outcome: ExecutionOutcome;
  /** The interceptor that blocked it (server, name and phase). */
  blockedBy?: { server: string; interceptor: string; phase?: string };
  errorCode?: number;
  simulated?: boolean;
  replayOf?: string;
}

export interface ExecutionPage {
  items: ExecutionSummary[];
  /** Pass back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
  /** Number of executions matching the filter (only when asked: it walks every match). */
  total?: number;
}

export interface PageOptions {
  limit?: number;
  cursor?: string | null;
  withTotal?: boolean;
}

export const MAX_PAGE = 1000;

export interface ExecutionDetail extends ExecutionRecord {
  sinkEvents: SinkEvent[];
  /** Ids of executions that replayed this one, oldest first. */
  replayedBy: string[];
  session?: SessionRecord;
  /** The host whose gateway recorded it (shared PostgreSQL histories). */
  host?: string;
}
