// Retention: deletes executions beyond a maximum count and/or age (their steps, sink events and
// replay links cascade, the search index follows by trigger), the captured messages older than the
// oldest execution kept (their keys share the executions' time order, so one cutoff serves both), then
// payloads no execution refers to any more, then sessions left without executions, and hands the freed
// pages back to the disk.
import type Database from 'better-sqlite3';
import { lowerKeyFor } from '../sql/execution-ids';

export interface PruneOptions {
  maxExecutions?: number;
  maxAgeDays?: number;
  /** Rewrite the whole file (VACUUM) instead of the incremental vacuum: smallest file, needs free space and time. */
  fullVacuum?: boolean;
  now?: number;
  /** Executions deleted per transaction: other writers get the lock between chunks. */
  chunkSize?: number;
}

export interface PruneResult {
  deleted: number;
  /** Captured messages (the Messages view) deleted with them. */
  messagesDeleted: number;
  payloadsDeleted: number;
  sessionsDeleted: number;
  bytesBefore: number;
  bytesAfter: number;
}

function fileBytes(db: Database.Database): number {
  const pages = db.pragma('page_count', { simple: true }) as number;
  const size = db.pragma('page_size', { simple: true }) as number;
  return pages * size;
}

/** How many executions pruneHistory would delete now with these options (asked before a new policy is saved). */
export function countPrunable(db: Database.Database, options: Pick<PruneOptions, 'maxExecutions' | 'maxAgeDays' | 'now'>): number {
  const cutoff = pruneCutoff(db, options);
  if (cutoff === -Infinity) return 0;
  const bound = Number.isFinite(cutoff) ? cutoff : Number.MAX_SAFE_INTEGER;
  return db.prepare('SELECT COUNT(*) FROM executions WHERE id < ?').pluck().get(bound) as number;
}

/** Executions with a key below the result are the ones to delete (-Infinity: none). */
function pruneCutoff(db: Database.Database, options: Pick<PruneOptions, 'maxExecutions' | 'maxAgeDays' | 'now'>): number {
  let cutoff = -Infinity;
  if (options.maxAgeDays !== undefined) {
    const now = options.now ?? Date.now();
    cutoff = Math.max(cutoff, lowerKeyFor(now - options.maxAgeDays * 86_400_000));
  }
  if (options.maxExecutions !== undefined) {
    const keep = Math.max(0, Math.floor(options.maxExecutions));
    const boundary =
      keep === 0
        ? Infinity
        : (db
            .prepare('SELECT id FROM executions ORDER BY id DESC LIMIT 1 OFFSET ?')
            .pluck()
            .get(keep - 1) as number | undefined);
    if (boundary !== undefined) cutoff = Math.max(cutoff, boundary);
  }
  return cutoff;
}

export function pruneHistory(db: Database.Database, options: PruneOptions): PruneResult {
  const bytesBefore = fileBytes(db);
  const chunk = Math.max(100, options.chunkSize ?? 5000);
  const cutoff = pruneCutoff(db, options); // delete executions with key < cutoff

  let deleted = 0;
  if (cutoff > -Infinity) {
    const bound = Number.isFinite(cutoff) ? cutoff : Number.MAX_SAFE_INTEGER;
    const deleteChunk = db.prepare(`DELETE FROM executions WHERE id IN (SELECT id FROM executions WHERE id < ? ORDER BY id LIMIT ?)`);
    for (;;) {
      const n = db.transaction(() => deleteChunk.run(bound, chunk).changes).immediate();
      deleted += n;
      if (n < chunk) break;
    }
  }
  let messagesDeleted = 0;
  if (cutoff > -Infinity) {
    const bound = Number.isFinite(cutoff) ? cutoff : Number.MAX_SAFE_INTEGER;
    const deleteMessages = db.prepare(`DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE id < ? ORDER BY id LIMIT ?)`);
    for (;;) {
      const n = db.transaction(() => deleteMessages.run(bound, chunk).changes).immediate();
      messagesDeleted += n;
      if (n < chunk) break;
    }
  }

  // Mark and sweep in one transaction with the generation bump, so a writer in another process
  // either sees the bump (and forgets its cached payload ids) or committed before the sweep.
  const { payloadsDeleted, sessionsDeleted } = db
    .transaction(() => {
      const payloads = deleted > 0 ? db.prepare('DELETE FROM payloads WHERE id NOT IN (SELECT payload_id FROM execution_payloads)').run().changes : 0;
      if (payloads > 0) db.prepare(`UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'payload_generation'`).run();
      const sessions =
        deleted > 0
          ? db
              .prepare(
                // One pass over executions (no index on session_key is needed for this).
                `DELETE FROM sessions WHERE (gateway_id, session_key) NOT IN
                   (SELECT gateway_id, session_key FROM executions WHERE session_key IS NOT NULL)
                 AND started_at < ?`,
              )
              .run(new Date(Number.isFinite(cutoff) ? cutoff / 1024 : Date.now()).toISOString()).changes
          : 0;
      return { payloadsDeleted: payloads, sessionsDeleted: sessions };
    })
    .immediate();

  if (deleted + messagesDeleted > 0) {
    if (options.fullVacuum) db.exec('VACUUM');
    else db.pragma('incremental_vacuum');
    // Fold the WAL back into the file so the space is really returned.
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('optimize');
  }
  return { deleted, messagesDeleted, payloadsDeleted, sessionsDeleted, bytesBefore, bytesAfter: fileBytes(db) };
}
