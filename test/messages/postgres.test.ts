// What only the PostgreSQL store has to get right for captured messages: the migration that adds them to a
// database already holding a team's history (rows kept), a server that goes away and comes back while a
// gateway captures messages (none lost, none doubled), and a gateway killed with messages only in its
// crash journal (written by the next one, once, however often they are handed over again).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openPgHistoryWriter, PgHistory, PgHistoryStore, pgMigrations, runPgMigrations, PG_LATEST_VERSION } from '../../src/main/history/postgres';
import { createPool } from '../../src/main/history/postgres/connection';
import type { MessageRecord } from '../../src/shared/trace/messages';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../fixtures/postgres-cluster';
import { makeExecution, tempDir } from '../store/fixtures';
import { killedGatewayMessages } from './helpers/killed-gateway';
import { cliPath } from '../gateway/helpers';

const skip = postgresUnavailable();

function message(gateway: string, at: number, i: number): MessageRecord {
  return {
    id: randomUUID(),
    gateway,
    sessionId: 'outage',
    at,
    side: 'client',
    direction: 'in',
    kind: 'notification',
    method: 'notifications/progress',
    message: { jsonrpc: '2.0', method: 'notifications/progress', params: { i } },
  };
}

async function counts(url: string, gateway: string): Promise<{ rows: number; distinct: number }> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const r = await db.query<{ rows: number; distinct: number }>(
      'SELECT count(*)::int AS rows, count(DISTINCT uuid)::int AS distinct FROM messages WHERE gateway_id = (SELECT id FROM gateways WHERE name = $1)',
      [gateway],
    );
    return r.rows[0]!;
  } finally {
    await db.end();
  }
}

describe.skipIf(skip)('PostgreSQL store: captured messages', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.stop());

  it('migrates a database at version 1 holding executions to the messages schema, every row intact', async () => {
    const url = await cluster.createDatabase();
    const pool = createPool(url, { max: 1 });
    const records = [
      makeExecution({ gateway: 'edge-1', sessionId: 'old-session', text: 'zanzibar ledger' }),
      makeExecution({ gateway: 'edge-1', outcome: 'blocked' }),
    ];
    try {
      expect(await runPgMigrations(pool, pgMigrations.slice(0, 1))).toEqual({ from: 0, to: 1 });
      // Rows as version 1 wrote them (plain SQL: the recorder of this build writes the latest schema).
      const gw = await pool.query<{ id: number }>(
        `INSERT INTO gateways (name, host, created_at, updated_at) VALUES ('edge-1', 'host-1', $1, $1) RETURNING id`,
        [new Date().toISOString()],
      );
      const gatewayId = gw.rows[0]!.id;
      await pool.query(`INSERT INTO sessions (gateway_id, session_key, started_at, record_json) VALUES ($1, 'old-session', $2, $3)`, [
        gatewayId,
        records[0]!.startedAt,
        JSON.stringify({ id: 'old-session', gateway: 'edge-1', startedAt: records[0]!.startedAt, clientInfo: { name: 'claude' } }),
      ]);
      for (const r of records) {
        await pool.query(
          `INSERT INTO executions (uuid, gateway_id, host, session_key, event, target, started_ms, duration_ms, outcome, search, record_json)
           VALUES ($1, $2, 'host-1', $3, $4, $5, $6, $7, $8, $9::tsvector, $10)`,
          [
            r.id,
            gatewayId,
            r.sessionId ?? null,
            r.event,
            r.target ?? null,
            Date.parse(r.startedAt),
            r.durationMs,
            r.outcome,
            r === records[0] ? `'zanzibar' 'ledger'` : '',
            JSON.stringify(r),
          ],
        );
      }
      expect(await runPgMigrations(pool)).toEqual({ from: 1, to: PG_LATEST_VERSION });
    } finally {
      await pool.end();
    }
    const store = await PgHistoryStore.open(url);
    try {
      for (const r of records) expect(await store.getExecutionRecord(r.id)).toEqual(r);
      expect((await store.listExecutions({ search: 'zanzibar' })).items.map((i) => i.id)).toEqual([records[0]!.id]);
      expect(await store.getSession('edge-1', 'old-session')).toMatchObject({ clientInfo: { name: 'claude' } });
      // The new table is there and in use: a message recorded now links to the old execution.
      const recorder = await openPgHistoryWriter(url);
      const m = { ...message('edge-1', Date.now(), 0), sessionId: 'old-session', executionId: records[0]!.id };
      recorder.recordMessage(m);
      await recorder.close();
      expect(await store.getMessage(m.id)).toMatchObject({ gateway: 'edge-1', sessionId: 'old-session', executionId: records[0]!.id });
      expect(await store.listMessageSessions('edge-1')).toEqual([
        { sessionId: 'old-session', lastAt: new Date(m.at).toISOString(), startedAt: records[0]!.startedAt, clientName: 'claude' },
      ]);
    } finally {
      await store.close();
    }
  });

  it('buffers messages while PostgreSQL is down and writes every one, once, when it is back', async () => {
    const url = await cluster.createDatabase();
    const recorder = await openPgHistoryWriter(url, { batchSize: 50 });
    const t0 = Date.now();
    const before = Array.from({ length: 100 }, (_, i) => message('edge-m', t0 + i, i));
    for (const m of before) recorder.recordMessage(m);
    recorder.recordExecution(makeExecution({ gateway: 'edge-m' }));
    await recorder.flush();
    cluster.pause();
    const during = Array.from({ length: 300 }, (_, i) => message('edge-m', t0 + 100 + i, 100 + i));
    for (const m of during) recorder.recordMessage(m); // never throws, never waits
    recorder.recordExecution(makeExecution({ gateway: 'edge-m' }));
    // Wait for the recorder to find out (an event, not a sleep).
    await expect.poll(() => recorder.stats().disconnected, { timeout: 30_000 }).toBe(true);
    expect(recorder.stats().queued).toBeGreaterThan(0);
    cluster.resume();
    await recorder.flush();
    const stats = recorder.stats();
    await recorder.close();
    expect(stats).toMatchObject({ queued: 0, failed: 0, lost: 0, disconnected: false });
    expect(await counts(url, 'edge-m')).toEqual({ rows: 400, distinct: 400 });
    const store = await PgHistoryStore.open(url);
    try {
      const page = await store.listMessages({ gateway: 'edge-m', session: 'outage' }, { limit: 1000 });
      expect(page.items.map((m) => m.id)).toEqual([...before, ...during].reverse().map((m) => m.id));
    } finally {
      await store.close();
    }
  });

  it("the console's PostgreSQL history captures its gateways' messages, with the redaction setting applied as it changes", async () => {
    const url = await cluster.createDatabase();
    const history = await PgHistory.openRecording(url, { redactPaths: ['arguments.password'] });
    const login = (password: string): MessageRecord => ({
      ...message('console-gw', Date.now(), 0),
      kind: 'request',
      method: 'tools/call',
      message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'login', arguments: { user: 'ann', password } } },
    });
    const first = login('hunter2');
    // A gateway captures messages only from a recorder that keeps them.
    expect(typeof history.recorder.recordMessage).toBe('function');
    history.recorder.recordMessage(first);
    history.setRedaction([]);
    const second = login('open-sesame');
    history.recorder.recordMessage(second);
    await history.recorder.flush();
    try {
      const a = (await history.getMessage(first.id))!.body;
      expect(a).not.toContain('hunter2');
      expect(a).toContain('ann');
      expect((await history.getMessage(second.id))!.body).toContain('open-sesame');
    } finally {
      await history.close();
    }
  });

  it('prunes messages with the executions from the CLI, and says how many', async () => {
    const url = await cluster.createDatabase();
    const recorder = await openPgHistoryWriter(url);
    const DAY = 86_400_000;
    const now = Date.now();
    for (const age of [10, 1]) {
      recorder.recordExecution(makeExecution({ gateway: 'edge-p', startedAt: new Date(now - age * DAY).toISOString() }));
      for (let i = 0; i < 3; i++) recorder.recordMessage(message('edge-p', now - age * DAY + i, i));
    }
    await recorder.close();
    const t = tempDir();
    try {
      const pruned = spawnSync(process.execPath, [cliPath, 'prune', '--db', url, '--max-age-days', '5'], {
        encoding: 'utf8',
        env: { ...process.env, INTERCEPTOR_CONSOLE_DB: '', INTERCEPTOR_CONSOLE_DATA: t.dir },
      });
      expect(pruned.status, pruned.stderr).toBe(0);
      expect(pruned.stdout).toContain('deleted 1 execution(s), 3 message(s) from PostgreSQL');
    } finally {
      t.cleanup();
    }
    expect(await counts(url, 'edge-p')).toEqual({ rows: 3, distinct: 3 });
  });

  it('writes the messages a SIGKILLed gateway had only in its journal, exactly once, even when they are handed over again', { timeout: 120_000 }, async () => {
    const url = await cluster.createDatabase();
    const t = tempDir();
    try {
      const journal = join(t.dir, 'postgres-history');
      const N = 100;
      const script = fileURLToPath(new URL('./helpers/pg-messages-then-die.ts', import.meta.url));
      const died = await new Promise<{ signal: string | null; written: number }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', script, url, journal, String(N)], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        child.on('exit', (_code, signal) => {
          const line = out.trim().split('\n').at(-1);
          if (!line) reject(new Error(`the child printed nothing: ${err}`));
          else resolve({ signal, ...(JSON.parse(line) as { written: number }) });
        });
      });
      expect(died).toEqual({ signal: 'SIGKILL', written: 0 });
      expect(await counts(url, 'killed-gw')).toEqual({ rows: 0, distinct: 0 });
      const next = await openPgHistoryWriter(url, { journal: { path: journal } });
      await next.flush();
      // The same records again (a second replay, a gateway retrying): stored already, skipped.
      for (let i = 0; i < N; i++) for (const m of killedGatewayMessages(i, `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`)) next.recordMessage(m);
      await next.close();
      expect(await counts(url, 'killed-gw')).toEqual({ rows: N * 3, distinct: N * 3 });
      expect(readdirSync(t.dir)).toEqual([]);
      const store = await PgHistoryStore.open(url);
      try {
        const call7 = await store.listMessages({ gateway: 'killed-gw', executionId: '00000000-0000-4000-8000-000000000007' });
        expect(call7.items.map((m) => m.side)).toEqual(['client', 'backend', 'client']);
        expect(call7.items.every((m) => m.executionId === '00000000-0000-4000-8000-000000000007')).toBe(true);
      } finally {
        await store.close();
      }
    } finally {
      t.cleanup();
    }
  });
});
