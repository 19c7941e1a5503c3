// The one check that a history file is whole, run by every open (the gateway's recorder, the console, the
// history commands). The header and schema checks of open-store.ts only see the first pages: a file damaged
// past them was opened by the gateway and the console, whose recorders then retried their batches forever
// against pages that will never read, while `history` refused the same file on its first query.
// SQLite's quick_check reads every page (about 2-3 ms per MB on a warm cache), without the slower
// cross-check of index contents that integrity_check adds.
import type Database from 'better-sqlite3';
import { StoreOpenError } from './store-open-error';

/** Throws StoreOpenError('corrupt') when the file is damaged; SQLite's own errors propagate (the caller classifies them). */
export function checkIntegrity(db: Database.Database, file: string): void {
  const rows = db.pragma('quick_check(1)') as { quick_check?: unknown }[];
  const first = String(rows[0]?.quick_check ?? 'no answer');
  if (first === 'ok') return;
  // One line, bounded: SQLite's report spans lines and can be long.
  const finding = first.replace(/\s+/g, ' ').trim().slice(0, 200);
  throw new StoreOpenError(
    'corrupt',
    file,
    `${file} is damaged (database disk image is malformed). It was left untouched; restore it from a backup or an export, or use another file with --db. SQLite's check found: ${finding}`,
  );
}
