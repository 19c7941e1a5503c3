// Version 3: free-text search over each execution's payloads (FTS5). Contentless: the text already
// lives in payloads, the index keeps only tokens; its rowid is the execution id, so a search walks
// newest-first in the same order as every other page. detail=none keeps no token positions: a
// third of the size and faster writes; a search then means "all these words" (no phrases).
//
// Executions recorded before this version are indexed here too (else a search would silently skip
// them): the same text the inserter indexes (sql/search-text.ts), rebuilt from the version-2 rows.
// It reads those tables as they are at version 2, not through today's sql/ code, which later versions
// may change.
import type Database from 'better-sqlite3';
import { SEARCH_TEXT_LIMIT } from '../../model/encode/search-text';
import type { Migration } from './types';

export const migration0003: Migration = {
  version: 3,
  name: 'payload-search',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE executions_fts USING fts5 (
        body,
        content = '',
        contentless_delete = 1,
        detail = none,
        tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER executions_fts_delete AFTER DELETE ON executions BEGIN
        DELETE FROM executions_fts WHERE rowid = old.id;
      END;
    `);
    backfill(db);
  },
};

interface Version2Row {
  id: number;
  bodies: string;
  request_received: number | null;
  request_forwarded: number | null;
  response_received: number | null;
  response_returned: number | null;
  error_json: string | null;
  blocked_json: string | null;
}

/** A line of execution_details.bodies that stands for payloads.id = n (sql/payload-size.ts at version 2). */
const LARGE_PAYLOAD_MARK = '#';
const PAGE = 1000;

function backfill(db: Database.Database): void {
  const page = db.prepare(`
    SELECT e.id, d.bodies, d.request_received, d.request_forwarded, d.response_received, d.response_returned, d.error_json, d.blocked_json
    FROM executions e JOIN execution_details d ON d.execution_id = e.id
    WHERE e.id > ? ORDER BY e.id LIMIT ${PAGE}`);
  const largePayload = db.prepare('SELECT body FROM payloads WHERE id = ?').pluck();
  const insert = db.prepare('INSERT INTO executions_fts (rowid, body) VALUES (?, ?)');
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const rows = page.all(after) as Version2Row[];
    for (const row of rows) {
      const text = searchTextOf(row, (id) => largePayload.get(id) as string | undefined);
      if (text.length > 0) insert.run(row.id, text);
    }
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** sql/search-text.ts's searchText, from the stored form: the four payloads (each once), the error, the block reason. */
function searchTextOf(row: Version2Row, large: (id: number) => string | undefined): string {
  const lines = row.bodies.split('\n');
  const payload = (line: number | null): string | undefined => {
    if (line === null) return undefined;
    const text = lines[line];
    return text?.startsWith(LARGE_PAYLOAD_MARK) ? large(Number(text.slice(LARGE_PAYLOAD_MARK.length))) : text;
  };
  const parts: (string | undefined)[] = [];
  const seen = new Set<number>();
  for (const ref of [row.request_received, row.request_forwarded, row.response_received, row.response_returned]) {
    if (ref === null || seen.has(ref)) continue;
    seen.add(ref);
    parts.push(payload(ref));
  }
  if (row.error_json) parts.push(row.error_json);
  if (row.blocked_json) {
    const blocked = JSON.parse(row.blocked_json) as { reason?: unknown; messages?: unknown };
    parts.push([blocked.reason, ...(Array.isArray(blocked.messages) ? blocked.messages : [])].join('\n'));
  }
  let text = '';
  for (const part of parts) {
    if (!part || text.length >= SEARCH_TEXT_LIMIT) continue;
    if (text !== '') text += '\n';
    text += part.length > SEARCH_TEXT_LIMIT - text.length ? part.slice(0, SEARCH_TEXT_LIMIT - text.length) : part;
  }
  return text;
}
