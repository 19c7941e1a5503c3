// Queries as prepared statements: each distinct SQL text gets a name derived from it, so PostgreSQL
// plans it once per connection however often the Traffic screen pages. Parameters are numbered by
// `Params` as conditions are added (the filters compile to different texts, each its own statement).
import { createHash } from 'node:crypto';
import type pg from 'pg';

export function prepared<R extends pg.QueryResultRow>(db: pg.Pool | pg.PoolClient, text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
  const name = `ic_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  return db.query<R>({ name, text, values });
}

export class Params {
  readonly values: unknown[] = [];
  /** Adds a value and returns its placeholder ($n). */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
