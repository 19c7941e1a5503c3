// Reading records back in full (export, detail) must be key walks whatever the planner's statistics
// say. With the statistics of a million-execution file (3 gateways), a plain JOIN made SQLite loop
// over gateways and sort every execution for each export page: 5 s a page instead of 60 ms.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXECUTION_COLUMNS, EXECUTION_FROM, EXECUTION_FROM_BY_KEY } from '../../src/main/history/sqlite/sql/reader';
import { encodeExecution } from '../../src/main/history/model/encode/encode';
import { ExecutionInserter } from '../../src/main/history/sqlite/sql/inserter';
import { exportLines, getExecution, openStore } from '../../src/main/history/sqlite';
import { rng, syntheticExecution } from '../../scripts/generate-executions';
import { tempDir } from './fixtures';

const t = tempDir('ic-store-plans-');
afterAll(() => t.cleanup());

const store = openStore(join(t.dir, 'plans.db'));
afterAll(() => store.close());
const inserter = new ExecutionInserter(store.db);
const r = rng(5);
store.db.transaction(() => {
  inserter.beginBatch();
  for (let i = 0; i < 200; i++) inserter.write(encodeExecution(syntheticExecution(i, Date.now() - 200_000 + i * 1000, r)));
  inserter.endBatch();
})();
store.db.exec('ANALYZE');
for (const [tbl, idx, stat] of [
  ['executions', 'executions_by_gateway', '1000000 333334'],
  ['executions', 'sqlite_autoindex_executions_1', '1000000 1'],
  ['gateways', 'sqlite_autoindex_gateways_1', '3 1'],
]) {
  store.db.prepare('DELETE FROM sqlite_stat1 WHERE tbl = ? AND idx = ?').run(tbl, idx);
  store.db.prepare('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)').run(tbl, idx, stat);
}
store.db.exec('ANALYZE sqlite_schema');

const plan = (sql: string, ...params: unknown[]) =>
  (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join(' | ');

describe('plans of full-record reads on a million-row file', () => {
  it('an export page walks executions by key without sorting', () => {
    const p = plan(`SELECT ${EXECUTION_COLUMNS} FROM ${EXECUTION_FROM_BY_KEY} WHERE e.id > ? ORDER BY e.id LIMIT 500`, 0);
    expect(p).not.toContain('TEMP B-TREE');
    expect(p.startsWith('SEARCH e USING INTEGER PRIMARY KEY')).toBe(true);
    expect([...exportLines(store.db)]).toHaveLength(1 + 3 + 200); // header, gateways, executions
  });

  it('one execution is found by its uuid', () => {
    const p = plan(`SELECT ${EXECUTION_COLUMNS} FROM ${EXECUTION_FROM} WHERE e.uuid = ?`, 'x');
    expect(p).toMatch(/^SEARCH e USING INDEX sqlite_autoindex_executions_1 \(uuid=\?\)/);
    const id = store.db.prepare('SELECT uuid FROM executions LIMIT 1').pluck().get() as string;
    expect(getExecution(store.db, id)?.id).toBe(id);
  });
});
