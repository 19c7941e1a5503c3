// Dynamic queries (one SQL text per combination of filters) are prepared once per connection and
// reused; the cache is bounded because filter combinations are few but not fixed.
import type Database from 'better-sqlite3';

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();
const LIMIT = 200;

export function cachedStatement(db: Database.Database, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let st = cache.get(sql);
  if (!st) {
    if (cache.size >= LIMIT) cache.clear();
    st = db.prepare(sql);
    cache.set(sql, st);
  }
  return st;
}
