// PostgreSQL migration executions-by-host (3): a database recorded at the version before it, by two hosts, is
// migrated with its rows intact, gains the index the Traffic host filter and suggestions walk, and then
// answers the host filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgHistoryStore, PgHistoryWriter, pgMigrations, runPgMigrations } from '../../src/main/history/postgres';
import { createPool } from '../../src/main/history/postgres/connection';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../fixtures/postgres-cluster';
import { makeExecution } from './fixtures';

const skip = postgresUnavailable();

const HOST_INDEX = pgMigrations.find((m) => m.name === 'executions-by-host')!.version;

describe.skipIf(skip)(`PostgreSQL migration ${HOST_INDEX}: executions by host`, () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('migrates a database of the version before, with rows from two hosts: rows intact, index present, host filter answers', async () => {
    const url = await cluster.createDatabase();
    const before = pgMigrations.filter((m) => m.version < HOST_INDEX);
    const recorded: Record<string, string[]> = { 'host-a': [], 'host-b': [] };
    for (const host of ['host-a', 'host-b']) {
      const pool = createPool(url, { max: 1 });
      expect((await runPgMigrations(pool, before)).to).toBe(HOST_INDEX - 1);
      const recorder = new PgHistoryWriter(pool, { url, host });
      for (let i = 0; i < 5; i++) {
        const rec = makeExecution({ gateway: 'edge', text: `${host} call ${i}` });
        recorded[host]!.push(rec.id);
        recorder.recordExecution(rec);
      }
      await recorder.close();
    }

    const store = await PgHistoryStore.open(url); // migrates to the latest
    try {
      const versions = await store.pool.query<{ version: number }>('SELECT version FROM ic_schema_migrations ORDER BY version');
      expect(versions.rows.map((r) => r.version)).toContain(HOST_INDEX);
      const index = await store.pool.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE indexname = 'executions_by_host'`);
      expect(index.rows[0]?.indexdef).toMatch(/\(host, started_ms DESC, id DESC\) WHERE \(host IS NOT NULL\)/);
      expect(await store.countExecutions()).toBe(10);
      for (const host of ['host-a', 'host-b']) {
        const page = await store.listExecutions({ host }, { limit: 100 });
        expect(page.items.map((i) => i.id).sort()).toEqual([...recorded[host]!].sort());
        expect(page.items.every((i) => i.host === host)).toBe(true);
      }
      expect((await store.facets()).hosts).toEqual(['host-a', 'host-b']);
    } finally {
      await store.close();
    }
  });
});
