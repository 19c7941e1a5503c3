// What a Traffic page and an execution's detail are, whichever engine answers: the summary row, the
// keyset page, its options, and the full execution with its sink events, replays and session.
// The summary and the detail are the API's read models (src/shared/api/models-execution.ts): one
// definition, which the engines produce and the screens read.
import type { ExecutionDetail, ExecutionSummary } from '../../../shared/api/models-execution';

export type { ExecutionDetail, ExecutionSummary };

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
