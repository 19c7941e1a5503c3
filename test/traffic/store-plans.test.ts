// The Traffic and Sinks pages must be index walks however the planner's statistics look. With the
// statistics of a million-execution file (3 gateways), a plain JOIN made SQLite drive from the gateways
// table and sort every execution in a temp B-tree: seconds per page. The plans are checked here on a
// small file given those statistics.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { listExecutions, listSinkEvents, openStore, type Store } from '../../src/main/history/sqlite';
import { encodeExecution } from '../../src/main/history/model/encode/encode';
import { ExecutionInserter } from '../../src/main/history/sqlite/sql/inserter';
import { rng, syntheticExecution } from '../../scripts/generate-executions';

const dir = mkdtempSync(join(tmpdir(), 'ic-plans-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function storeWithMillionRowStats(): Store {
  const store = openStore(join(dir, 'plans.db'));
  const inserter = new ExecutionInserter(store.db);
  const r = rng(3);
  store.db.transaction(() => {
    inserter.beginBatch();
    for (let i = 0; i < 300; i++) inserter.write(encodeExecution(syntheticExecution(i, Date.now() - 300_000 + i * 1000, r)));
  })();
  store.db.exec('ANALYZE');
  // What ANALYZE says of the generated 1M-execution file (bench/traffic-ui.ts).
  const stats: [string, string, string][] = [
    ['executions', 'executions_by_gateway', '1000000 2001'],
    ['executions', 'executions_by_event', '1000000 2001'],
    ['executions', 'executions_by_outcome', '1000000 2001'],
    ['executions', 'sqlite_autoindex_executions_1', '1000000 1'],
    ['gateways', 'sqlite_autoindex_gateways_1', '3 1'],
    ['sink_events', 'sink_events', '950162 1 1'],
    ['sink_events', 'sink_events_by_interceptor', '950162 2001 1'],
  ];
  for (const [tbl, idx, stat] of stats) {
    store.db.prepare('DELETE FROM sqlite_stat1 WHERE tbl = ? AND idx = ?').run(tbl, idx);
    store.db.prepare('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)').run(tbl, idx, stat);
  }
  store.db.exec('ANALYZE sqlite_schema');
  return store;
}

/** Runs `fn` and returns the query plans of every SELECT it prepared. */
function plansOf(db: Database.Database, fn: () => void): string[] {
  const prepared: string[] = [];
  const original = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    if (/^\s*SELECT/i.test(sql)) prepared.push(sql);
    return original(sql);
  }) as typeof db.prepare;
  try {
    fn();
  } finally {
    db.prepare = original as typeof db.prepare;
  }
  return prepared.map((sql) => {
    const params = (sql.match(/\?/g) ?? []).map(() => 1);
    const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
    return rows.map((r) => r.detail).join(' | ');
  });
}

describe('query plans of the Traffic and Sinks pages on a million-row file', () => {
  const store = storeWithMillionRowStats();
  afterAll(() => store.close());

  it('an unfiltered page of executions walks the primary key, newest first, without sorting', () => {
    const plans = plansOf(store.db, () => listExecutions(store.db, {}, { limit: 100, cursor: '999999999999999' }));
    const page = plans.find((p) => p.includes('SCAN e') || p.includes('SEARCH e'))!;
    expect(page).toBeDefined();
    expect(page).not.toContain('TEMP B-TREE');
    expect(page.indexOf(' e')).toBeLessThan(page.indexOf(' g '));
  });

  it('an unfiltered page of sink events walks sink_events newest first, without sorting', () => {
    const plans = plansOf(store.db, () => listSinkEvents(store.db, {}, { limit: 100 }));
    expect(plans.length).toBeGreaterThan(0);
    for (const p of plans) expect(p).not.toContain('TEMP B-TREE');
  });
});
