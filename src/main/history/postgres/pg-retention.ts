// Retention on PostgreSQL: executions beyond a maximum count and/or age are deleted in chunks (their
// steps and sink events cascade), then the captured messages older than the oldest execution kept (as the
// SQLite store does: one time boundary serves both), then sessions left without executions. Chunks keep each transaction
// short, so gateways recording meanwhile are not held up. Autovacuum hands the space back.
import type pg from 'pg';
import type { RetentionOptions } from '../model/history-store';
import { prepared } from './statements';

/** Executions ordered before (started_ms, id) = the boundary are deleted; null: none. */
async function boundary(db: pg.Pool, options: RetentionOptions): Promise<[number, string] | null> {
  let best: [number, string] | null = null;
  const later = (a: [number, string], b: [number, string]) => a[0] > b[0] || (a[0] === b[0] && BigInt(a[1]) > BigInt(b[1]));
  if (options.maxAgeDays !== undefined) {
    const now = options.now ?? Date.now();
    // Everything that started before the cutoff: (cutoff, 0) is below every row started at the cutoff.
    best = [Math.ceil(now - options.maxAgeDays * 86_400_000), '0'];
  }
  if (options.maxExecutions !== undefined) {
    const keep = Math.max(0, Math.floor(options.maxExecutions));
    let b: [number, string] | undefined;
    if (keep === 0) b = [Number.MAX_SAFE_INTEGER, '0'];
    else {
      const r = await prepared<{ started_ms: string; id: string }>(
        db,
        'SELECT started_ms, id FROM executions ORDER BY started_ms DESC, id DESC LIMIT 1 OFFSET $1',
        [keep - 1],
      );
      if (r.rows[0]) b = [Number(r.rows[0].started_ms), r.rows[0].id];
    }
    if (b && (!best || later(b, best))) best = b;
  }
  return best;
}

export async function pgCountPrunable(db: pg.Pool, options: RetentionOptions): Promise<number> {
  const b = await boundary(db, options);
  if (!b) return 0;
  const r = await prepared<{ n: number }>(db, 'SELECT count(*)::int AS n FROM executions WHERE (started_ms, id) < ($1, $2)', [b[0], b[1]]);
  return r.rows[0]!.n;
}

export async function pgPrune(
  db: pg.Pool,
  options: RetentionOptions & { chunkSize?: number },
): Promise<{ deleted: number; messagesDeleted: number; sessionsDeleted: number }> {
  const b = await boundary(db, options);
  if (!b) return { deleted: 0, messagesDeleted: 0, sessionsDeleted: 0 };
  const chunk = Math.max(100, options.chunkSize ?? 5000);
  let deleted = 0;
  for (;;) {
    const r = await prepared(
      db,
      `DELETE FROM executions WHERE id IN (SELECT id FROM executions WHERE (started_ms, id) < ($1, $2) ORDER BY started_ms, id LIMIT $3)`,
      [b[0], b[1], chunk],
    );
    deleted += r.rowCount ?? 0;
    if ((r.rowCount ?? 0) < chunk) break;
  }
  let messagesDeleted = 0;
  for (;;) {
    const r = await prepared(db, `DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE at_ms < $1 ORDER BY at_ms LIMIT $2)`, [b[0], chunk]);
    messagesDeleted += r.rowCount ?? 0;
    if ((r.rowCount ?? 0) < chunk) break;
  }
  let sessionsDeleted = 0;
  if (deleted > 0) {
    const r = await prepared(
      db,
      `DELETE FROM sessions s WHERE s.started_at < $1
         AND NOT EXISTS (SELECT 1 FROM executions e WHERE e.gateway_id = s.gateway_id AND e.session_key = s.session_key)`,
      [new Date(Math.min(b[0], Date.now())).toISOString()],
    );
    sessionsDeleted = r.rowCount ?? 0;
  }
  return { deleted, messagesDeleted, sessionsDeleted };
}
