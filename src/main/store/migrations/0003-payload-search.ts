// Version 3: free-text search over each execution's payloads (FTS5). Contentless: the text already
// lives in payloads, the index keeps only tokens; its rowid is the execution id, so a search walks
// newest-first in the same order as every other page. detail=none keeps no token positions: a
// third of the size and faster writes; a search then means "all these words" (no phrases).
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
  },
};
