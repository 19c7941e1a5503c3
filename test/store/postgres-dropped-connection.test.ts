// A connection the server ends while a reader holds it (a restart, a failover, pg_terminate_backend) must not
// crash the console or the CLI. The readers that check a connection out of the pool (the text-search page in
// pg-queries.ts, export in pg-portability.ts, migrations.ts) had no 'error' listener on it: pg then emits an
// unheard 'error' event, which Node turns into an uncaught exception (vitest reports it as an unhandled
// error, so this file fails without the listener). The pool must also drop that connection and serve the
// next query on a fresh one.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgHistoryStore } from '../../src/main/history/postgres';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../fixtures/postgres-cluster';

const skip = postgresUnavailable();

describe.skipIf(skip)('PostgreSQL connection ended while a reader holds it', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.stop());

  it('is heard, dropped, and the next query runs on a new connection', async () => {
    const url = await cluster.createDatabase();
    const store = await PgHistoryStore.open(url);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const held = await store.pool.connect(); // what the readers do
      const pid = (await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      // The query fails whether it is sent before or after the socket closes. (Waiting for the client's
      // 'end' event would hang without the fix: the unheard 'error' throws before pg emits 'end'.)
      await expect(held.query('SELECT 1')).rejects.toThrow();
      const gone = async () => (await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount === 0;
      await expect.poll(gone, { timeout: 20_000, interval: 50 }).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100)); // let the closed socket's events run out
      held.release(); // as the readers do: the pool drops a connection that is no longer queryable
      expect(uncaught).toEqual([]);
      // The store still answers, on a new connection.
      expect(await store.countExecutions()).toBe(0);
      const next = await store.pool.connect();
      try {
        expect((await next.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid).not.toBe(pid);
      } finally {
        next.release();
      }
    } finally {
      process.off('uncaughtException', onUncaught);
      await admin.end();
      await store.close();
    }
  });
});
