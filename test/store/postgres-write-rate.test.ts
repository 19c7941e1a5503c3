// The PostgreSQL history writer's write path, made faster (issue 18) without giving up a guarantee: several batches
// in flight at once (pg-history-writer.ts, send-order.ts), so a batch held up on the server no longer holds up the
// ones behind it, while a session's record still ends with its last version; a server stopped, or a
// connection ended, while batches are in flight loses and doubles nothing; one record the server refuses
// costs only itself; records are stored lz4-compressed. Batches are held up the way a real server holds
// them: another transaction has inserted (and not committed) an execution with the same id, or locked the
// gateway's row, so the recorder's statement waits on that lock until the transaction ends.
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgHistoryWriter, PgHistoryStore } from '../../src/main/history/postgres';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../fixtures/postgres-cluster';
import type { ExecutionRecord } from '../../src/shared/trace/execution';
import type { MessageRecord } from '../../src/shared/trace/messages';
import { makeExecution, tempDir } from './fixtures';

const skip = postgresUnavailable();

describe.skipIf(skip)('PostgreSQL history writer write path', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.stop());

  async function connect(url: string): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return client;
  }
  const count = async (db: pg.Client) => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM executions')).rows[0]!.n);

  /** Inserts a row with this execution id in a transaction left open: a batch holding the id waits for it. */
  async function holdId(db: pg.Client, id: string, gateway: string): Promise<void> {
    await db.query('BEGIN');
    await db.query(
      `INSERT INTO executions (uuid, gateway_id, event, started_ms, duration_ms, outcome, search, record_json)
       SELECT $1, id, 'tools/call', 0, 0, 'allow', '', '{}' FROM gateways WHERE name = $2`,
      [id, gateway],
    );
  }
  /** Until a recorder's insert is seen waiting on that lock (an event of the server, not a delay). */
  const waitingOnLock = async (db: pg.Client) =>
    Number(
      (await db.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'interceptor-console' AND wait_event_type = 'Lock'`))
        .rows[0]!.n,
    );

  it('keeps committing later batches while one waits on the server, then writes that one too', async () => {
    const url = await cluster.createDatabase();
    const recorder = await openPgHistoryWriter(url, { batchSize: 10, maxInFlight: 3 });
    const [admin, reader] = [await connect(url), await connect(url)];
    try {
      recorder.recordExecution(makeExecution({ gateway: 'hol-gw' })); // the gateway's row, for holdId
      await recorder.flush();
      const stuck = makeExecution({ gateway: 'hol-gw' });
      await holdId(admin, stuck.id, 'hol-gw');
      const rest = Array.from({ length: 99 }, () => makeExecution({ gateway: 'hol-gw' }));
      for (const r of [stuck, ...rest]) recorder.recordExecution(r); // batch 1 holds `stuck`
      // One batch in flight at a time would wait behind batch 1 with everything else: 1 row, not 91.
      await expect.poll(() => count(reader), { timeout: 20_000, interval: 100 }).toBe(1 + 90);
      expect(await waitingOnLock(reader)).toBe(1);
      expect(recorder.stats().queued).toBe(10);
      await admin.query('ROLLBACK');
      await recorder.flush();
      expect(recorder.stats()).toMatchObject({ queued: 0, written: 101, duplicates: 0, failed: 0, lost: 0 });
      expect(await count(reader)).toBe(101);
      const stored = await reader.query<{ record_json: string }>('SELECT record_json FROM executions WHERE uuid = $1', [stuck.id]);
      expect(stored.rows.map((r) => JSON.parse(r.record_json) as unknown)).toEqual([stuck]);
    } finally {
      await Promise.all([admin.end(), reader.end(), recorder.close()]);
    }
  });

  it("keeps a session's last record last: a later version waits for the batch still writing the earlier one", async () => {
    const url = await cluster.createDatabase();
    const recorder = await openPgHistoryWriter(url, { batchSize: 5, maxInFlight: 3 });
    const [admin, reader] = [await connect(url), await connect(url)];
    try {
      recorder.recordExecution(makeExecution({ gateway: 'ord-gw', sessionId: 'other' }));
      await recorder.flush();
      // Batch 1 stops at its first statement, the gateway's config update, before its session upsert: the
      // gateway row is locked (FOR NO KEY UPDATE: the executions' key checks of that row still pass).
      await admin.query('BEGIN');
      await admin.query(`SELECT 1 FROM gateways WHERE name = 'ord-gw' FOR NO KEY UPDATE`);
      const session = { id: 's-1', gateway: 'ord-gw', startedAt: new Date().toISOString() };
      // Batch 1: the config, the session's first record, 3 of its executions; batch 2: another session's
      // executions; batch 3: the session's second record. Sent side by side, batch 3 would commit first and
      // batch 1's upsert would then bring back the first record.
      recorder.recordGateway('ord-gw', { version: 2 });
      recorder.recordSession({ ...session, clientInfo: { name: 'first' } });
      for (let i = 0; i < 3; i++) recorder.recordExecution(makeExecution({ gateway: 'ord-gw', sessionId: 's-1' }));
      for (let i = 0; i < 5; i++) recorder.recordExecution(makeExecution({ gateway: 'ord-gw', sessionId: 'other' }));
      recorder.recordSession({ ...session, clientInfo: { name: 'second' } });
      for (let i = 0; i < 4; i++) recorder.recordExecution(makeExecution({ gateway: 'ord-gw', sessionId: 's-1' }));
      await expect.poll(() => waitingOnLock(reader), { timeout: 20_000, interval: 50 }).toBe(1);
      await expect.poll(() => count(reader), { timeout: 20_000, interval: 50 }).toBe(1 + 5); // batch 2 went past batch 1
      expect(recorder.stats().queued).toBe(5 + 5);
      await admin.query('ROLLBACK');
      await recorder.flush();
      expect(await count(reader)).toBe(1 + 3 + 5 + 4);
      const stored = await reader.query<{ record_json: string }>(`SELECT record_json FROM sessions WHERE session_key = 's-1'`);
      expect(stored.rows.map((r) => (JSON.parse(r.record_json) as { clientInfo: { name: string } }).clientInfo.name)).toEqual(['second']);
    } finally {
      await Promise.all([admin.end(), reader.end(), recorder.close()]);
    }
  });

  it("keeps a session's captured messages in recording order when their batches are sent side by side", async () => {
    const url = await cluster.createDatabase();
    const recorder = await openPgHistoryWriter(url, { batchSize: 5, maxInFlight: 3 });
    const [admin, reader] = [await connect(url), await connect(url)];
    try {
      recorder.recordExecution(makeExecution({ gateway: 'msg-gw' }));
      await recorder.flush();
      await admin.query('BEGIN');
      await admin.query(`SELECT 1 FROM gateways WHERE name = 'msg-gw' FOR NO KEY UPDATE`); // holds batch 1 at its first statement
      const at = Date.now(); // one millisecond for all: the Messages view orders them by key
      const message = (i: number): MessageRecord => ({
        id: randomUUID(),
        gateway: 'msg-gw',
        sessionId: 's-1',
        at,
        side: 'client',
        direction: i % 2 ? 'out' : 'in',
        kind: i % 2 ? 'response' : 'request',
        method: 'tools/call',
        jsonrpcId: Math.floor(i / 2),
        message: { jsonrpc: '2.0', id: Math.floor(i / 2) },
      });
      const messages = Array.from({ length: 9 }, (_, i) => message(i));
      recorder.recordGateway('msg-gw', { version: 2 });
      for (const m of messages) recorder.recordMessage(m); // batch 1: the config and 4 messages; batch 2: 5 messages
      await expect.poll(() => waitingOnLock(reader), { timeout: 20_000, interval: 50 }).toBe(1);
      await admin.query('ROLLBACK');
      await recorder.flush();
      const stored = await reader.query<{ uuid: string }>('SELECT uuid FROM messages ORDER BY at_ms, id');
      expect(stored.rows.map((r) => r.uuid)).toEqual(messages.map((m) => m.id));
    } finally {
      await Promise.all([admin.end(), reader.end(), recorder.close()]);
    }
  });

  it('retries a batch whose connection the server ends mid-transaction, without an unhandled error event', async () => {
    const url = await cluster.createDatabase();
    const errors: string[] = [];
    const recorder = await openPgHistoryWriter(url, { batchSize: 10, maxInFlight: 2, onError: (m) => errors.push(m) });
    const [admin, reader] = [await connect(url), await connect(url)];
    try {
      recorder.recordExecution(makeExecution({ gateway: 'kill-gw' }));
      await recorder.flush();
      const stuck = makeExecution({ gateway: 'kill-gw' });
      await holdId(admin, stuck.id, 'kill-gw');
      const recs = [stuck, ...Array.from({ length: 9 }, () => makeExecution({ gateway: 'kill-gw' }))];
      for (const r of recs) recorder.recordExecution(r);
      await expect.poll(() => waitingOnLock(reader), { timeout: 20_000, interval: 50 }).toBe(1);
      // As a failover or an administrator would: the server ends the backend inside the batch's transaction.
      // The driver then emits 'error' on the checked-out client; no listener meant an uncaught exception.
      await reader.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'interceptor-console' AND wait_event_type = 'Lock'`);
      await expect.poll(() => recorder.stats().retries, { timeout: 20_000 }).toBeGreaterThan(0);
      await admin.query('ROLLBACK');
      await recorder.flush();
      expect(recorder.stats()).toMatchObject({ queued: 0, written: 11, failed: 0, lost: 0 });
      expect(errors.some((e) => /terminat/i.test(e) && /retrying/.test(e))).toBe(true);
      expect(await count(reader)).toBe(11);
    } finally {
      await Promise.all([admin.end(), reader.end(), recorder.close()]);
    }
  });

  it('loses and doubles nothing when the server stops with several batches in flight', async () => {
    const url = await cluster.createDatabase();
    const t = tempDir();
    const recorder = await openPgHistoryWriter(url, { batchSize: 25, maxInFlight: 4, journal: { path: join(t.dir, 'pg') } });
    try {
      const before = Array.from({ length: 1000 }, () => makeExecution({ gateway: 'stop-gw' }));
      for (const r of before) recorder.recordExecution(r); // 40 batches
      // Stopped once the first batches are in: the next ones are in flight, at whatever stage they reached.
      await expect.poll(() => recorder.stats().written, { timeout: 20_000, interval: 5 }).toBeGreaterThanOrEqual(100);
      cluster.pause();
      const during = Array.from({ length: 500 }, () => makeExecution({ gateway: 'stop-gw' }));
      for (const r of during) recorder.recordExecution(r);
      await expect.poll(() => recorder.stats().disconnected, { timeout: 20_000 }).toBe(true);
      cluster.resume();
      await recorder.flush();
      const stats = recorder.stats();
      expect(stats).toMatchObject({ queued: 0, failed: 0, lost: 0, disconnected: false });
      // Each record settled once: inserted, or found already stored (a batch whose commit answer was lost).
      expect(stats.written + stats.duplicates).toBe(1500);
      const store = await PgHistoryStore.open(url);
      try {
        expect(await store.countExecutions({ gateway: 'stop-gw' })).toBe(1500);
        const ids = new Set<string>();
        for (
          let cursor: string | undefined, page;
          (page = await store.listExecutions({ gateway: 'stop-gw' }, { limit: 500, ...(cursor ? { cursor } : {}) })).items.length > 0;
          cursor = page.nextCursor
        ) {
          for (const item of page.items) ids.add(item.id);
          if (!page.nextCursor) break;
        }
        expect([...before, ...during].every((r) => ids.has(r.id))).toBe(true);
        const steps = await store.pool.query<{ n: string }>('SELECT count(*) AS n FROM steps');
        expect(Number(steps.rows[0]!.n)).toBe(1500 * before[0]!.requestTrace!.steps.length + 1500 * (before[0]!.responseTrace?.steps.length ?? 0));
      } finally {
        await store.close();
      }
      await recorder.close();
      expect(readdirSync(t.dir)).toEqual([]); // everything stored: the journal is gone
    } finally {
      await recorder.close();
      t.cleanup();
    }
  });

  it('stores an execution without a single searchable word, alone in its batch and among others', async () => {
    const url = await cluster.createDatabase();
    const recorder = await openPgHistoryWriter(url);
    try {
      const at = new Date().toISOString();
      const bare = (n: number): ExecutionRecord => ({
        id: `00000000-0000-4000-8000-00000000000${n}`,
        gateway: 'bare-gw',
        event: 'ping',
        startedAt: at,
        durationMs: 1,
        outcome: 'allow',
      });
      recorder.recordExecution(bare(1));
      await recorder.flush(); // a batch of one whose search words are no text at all
      for (const r of [bare(2), makeExecution({ gateway: 'bare-gw', text: 'quarterly' }), bare(3)]) recorder.recordExecution(r);
      await recorder.flush();
      expect(recorder.stats()).toMatchObject({ written: 4, failed: 0 });
      const store = await PgHistoryStore.open(url);
      try {
        expect(await store.getExecutionRecord(bare(1).id)).toEqual(bare(1));
        expect(await store.countExecutions({ gateway: 'bare-gw', search: 'quarterly' })).toBe(1);
      } finally {
        await store.close();
      }
    } finally {
      await recorder.close();
    }
  });

  it('stores the record JSON lz4-compressed (less server CPU than the default pglz)', async () => {
    const url = await cluster.createDatabase();
    const recorder = await openPgHistoryWriter(url);
    const reader = await connect(url);
    try {
      for (let i = 0; i < 20; i++) recorder.recordExecution(makeExecution({ gateway: 'lz4-gw', text: 'long enough to be compressed '.repeat(100) }));
      await recorder.flush();
      const methods = await reader.query<{ m: string | null }>('SELECT DISTINCT pg_column_compression(record_json) AS m FROM executions');
      expect(methods.rows.map((r) => r.m)).toEqual(['lz4']);
    } finally {
      await Promise.all([reader.end(), recorder.close()]);
    }
  });

  it('stores every other record of a batch the server refuses for one record', async () => {
    const url = await cluster.createDatabase();
    const errors: string[] = [];
    const recorder = await openPgHistoryWriter(url, { batchSize: 100, maxInFlight: 2, onError: (m) => errors.push(m) });
    try {
      const recs = Array.from({ length: 300 }, () => makeExecution({ gateway: 'bad-gw' }));
      // The server refuses this one row: a constraint the test adds (SQLSTATE 23514). Every value a client or
      // backend can send is made storable (column-values.ts, postgres-column-values.test.ts), so a refusal
      // is something the writer cannot foresee: a constraint, a trigger, a full disk for one row.
      const admin = await connect(url);
      await admin.query(`ALTER TABLE executions ADD CONSTRAINT refuse_one CHECK (target IS DISTINCT FROM 'refuse-me')`);
      await admin.end();
      const bad = { ...recs[137]!, target: 'refuse-me' };
      recs[137] = bad;
      for (const r of recs) recorder.recordExecution(r);
      await recorder.flush();
      expect(recorder.stats()).toMatchObject({ queued: 0, written: 299, failed: 1 });
      expect(errors.some((e) => /refused a record/.test(e))).toBe(true);
      const store = await PgHistoryStore.open(url);
      try {
        expect(await store.countExecutions({ gateway: 'bad-gw' })).toBe(299);
        expect(await store.getExecutionRecord(bad.id)).toBeUndefined();
        expect((await store.getExecutionRecord(recs[138]!.id))?.id).toBe(recs[138]!.id);
      } finally {
        await store.close();
      }
    } finally {
      await recorder.close();
    }
  });
});
