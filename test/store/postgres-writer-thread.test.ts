// A PostgreSQL recorder writes its batches on a thread of its own (history/postgres/writer-thread/): the driver's
// work for each batch (binding every value, the socket writes that wake the server, parsing its answers) no
// longer runs on the gateway's thread between the lines it forwards ([path-speed]). The same guarantees hold
// on either thread: every record once, a record the server refuses for its content costs only itself (the
// SQLSTATE crosses the thread), a connection lost mid-batch is retried, and `writerThread: false` keeps the old
// path (also the fallback when the thread cannot start).
import type { Worker } from 'node:worker_threads';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgHistoryWriter } from '../../src/main/history/postgres';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../fixtures/postgres-cluster';
import { makeExecution } from './fixtures';

const skip = postgresUnavailable();

describe.skipIf(skip)('PostgreSQL recorder writer thread', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.stop());

  async function stored(url: string): Promise<string[]> {
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      return (await db.query<{ uuid: string }>('SELECT uuid FROM executions ORDER BY uuid')).rows.map((r) => r.uuid);
    } finally {
      await db.end();
    }
  }

  for (const writerThread of [true, false]) {
    it(`stores every record once with writerThread: ${writerThread}, and says where it writes`, async () => {
      const url = await cluster.createDatabase();
      const recorder = await openPgHistoryWriter(url, { batchSize: 20, maxInFlight: 3, writerThread });
      const records = Array.from({ length: 250 }, (_, i) => makeExecution({ gateway: i % 2 ? 'thread-a' : 'thread-b' }));
      try {
        for (const r of records) recorder.recordExecution(r);
        await recorder.flush();
        expect(recorder.stats()).toMatchObject({ queued: 0, written: 250, duplicates: 0, failed: 0, lost: 0, writer: writerThread ? 'worker' : 'in-thread' });
        // Handed over again (a journal replayed): duplicates, not second rows.
        for (const r of records.slice(0, 30)) recorder.recordExecution(r);
        await recorder.flush();
        expect(recorder.stats()).toMatchObject({ written: 250, duplicates: 30 });
      } finally {
        await recorder.close();
      }
      expect(await stored(url)).toEqual(records.map((r) => r.id).sort());
    });
  }

  it('checks a record at hand-over and encodes it on the thread: refused at once, or stored as it was given', async () => {
    const url = await cluster.createDatabase();
    const errors: string[] = [];
    const recorder = await openPgHistoryWriter(url, { onError: (m) => errors.push(m) });
    try {
      // Refused on the recorder's thread, as before: counted at once, never queued.
      recorder.recordExecution({ ...makeExecution({ gateway: 'defer-gw' }), outcome: 'maybe' as never });
      expect(recorder.stats()).toMatchObject({ queued: 0, failed: 1 });
      expect(errors.some((e) => /record refused: .*outcome "maybe"/.test(e))).toBe(true);
      // Encoded on the thread from its JSON: the stored record, its columns and its steps are the record's.
      const rec = makeExecution({ gateway: 'defer-gw', sessionId: 'defer-session', outcome: 'blocked' });
      recorder.recordExecution(rec);
      await recorder.flush();
      expect(recorder.stats()).toMatchObject({ queued: 0, written: 1, writer: 'worker' });
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        const row = (
          await db.query<{ record_json: string; outcome: string; session_key: string; steps: string }>(
            `SELECT e.record_json, e.outcome, e.session_key, (SELECT count(*) FROM steps s WHERE s.execution_id = e.id) AS steps
             FROM executions e WHERE e.uuid = $1`,
            [rec.id],
          )
        ).rows[0]!;
        expect(JSON.parse(row.record_json)).toEqual(rec);
        expect(row).toMatchObject({ outcome: 'blocked', session_key: 'defer-session' });
        expect(Number(row.steps)).toBe((rec.requestTrace?.steps.length ?? 0) + (rec.responseTrace?.steps.length ?? 0));
      } finally {
        await db.end();
      }
    } finally {
      await recorder.close();
    }
  });

  it('keeps the rest of a batch the server refuses one record of: the SQLSTATE crosses the thread, so it is not retried as an outage', async () => {
    const url = await cluster.createDatabase();
    const errors: string[] = [];
    const recorder = await openPgHistoryWriter(url, { batchSize: 10, onError: (m) => errors.push(m) });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`ALTER TABLE executions ADD CONSTRAINT refuse_one CHECK (target IS DISTINCT FROM 'refuse-me')`);
      const recs = Array.from({ length: 10 }, () => makeExecution({ gateway: 'refuse-gw' }));
      recs[4] = { ...recs[4]!, target: 'refuse-me' };
      for (const r of recs) recorder.recordExecution(r);
      await recorder.flush();
      expect(recorder.stats()).toMatchObject({ queued: 0, written: 9, failed: 1, retries: 0, writer: 'worker' });
      expect(errors.filter((e) => /refused a record: 23514: .*refuse_one/.test(e))).toHaveLength(1);
      expect(await stored(url)).toEqual(
        recs
          .filter((_, i) => i !== 4)
          .map((r) => r.id)
          .sort(),
      );
    } finally {
      await admin.end();
      await recorder.close();
    }
  });

  it("keeps writing after the server ends the thread's connections (as a failover does), and loses nothing", async () => {
    const url = await cluster.createDatabase();
    const recorder = await openPgHistoryWriter(url, { batchSize: 25, maxInFlight: 2 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const records = Array.from({ length: 200 }, () => makeExecution({ gateway: 'kill-gw' }));
      for (const r of records.slice(0, 100)) recorder.recordExecution(r);
      await recorder.flush();
      // Every connection of the recorder's (the thread's pool) ended by the server, as a failover would.
      const ended = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'interceptor-console' AND pid <> pg_backend_pid()`,
      );
      expect(ended.rowCount).toBeGreaterThan(0);
      for (const r of records.slice(100)) recorder.recordExecution(r);
      await recorder.flush();
      expect(recorder.stats()).toMatchObject({ queued: 0, written: 200, lost: 0, writer: 'worker' });
      expect(await stored(url)).toEqual(records.map((r) => r.id).sort());
    } finally {
      await admin.end();
      await recorder.close();
    }
  });
  it('loses nothing when the writer thread itself dies mid-run: its batches are written again on a thread started anew', async () => {
    const url = await cluster.createDatabase();
    const errors: string[] = [];
    const recorder = await openPgHistoryWriter(url, { batchSize: 10, maxInFlight: 3, onError: (m) => errors.push(m) });
    // The recorder's sender (writer-thread/batch-sender.ts): reached here only to end its thread as a crash would.
    const sender = (recorder as unknown as { sender: { worker?: Worker } }).sender;
    try {
      const records = Array.from({ length: 400 }, () => makeExecution({ gateway: 'die-gw' }));
      for (const r of records.slice(0, 50)) recorder.recordExecution(r);
      await recorder.flush();
      const first = sender.worker;
      expect(first).toBeDefined();
      // Batches in flight when it ends: the rest handed over at once, the thread terminated right after.
      for (const r of records.slice(50)) recorder.recordExecution(r);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await first!.terminate();
      await recorder.flush();
      const stats = recorder.stats();
      // A batch the server committed before the thread died, its answer lost, comes back as duplicates.
      expect(stats.written + stats.duplicates).toBe(400);
      expect(stats).toMatchObject({ queued: 0, lost: 0, writer: 'worker' });
      expect(errors.some((e) => /writer thread exited/.test(e))).toBe(true);
      expect(sender.worker).toBeDefined();
      expect(sender.worker).not.toBe(first);
      expect(await stored(url)).toEqual(records.map((r) => r.id).sort());
    } finally {
      await recorder.close();
    }
  });
});
