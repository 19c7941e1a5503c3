// What only the PostgreSQL store has to get right: a server that goes away and comes back while
// gateways record (nothing lost, nothing doubled), many processes migrating one database at once, a
// schema newer than the build, and connection strings whose password never reaches a message.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openPgHistoryWriter, PgHistoryStore, redactUrl, runPgMigrations, testConnection, PG_LATEST_VERSION } from '../../src/main/history/postgres';
import { createPool } from '../../src/main/history/postgres/connection';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../fixtures/postgres-cluster';
import { makeExecution, tempDir } from './fixtures';
import { cliPath } from '../gateway/helpers';

const skip = postgresUnavailable();

describe.skipIf(skip)('PostgreSQL store', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.stop());

  it('buffers while PostgreSQL is down and writes everything, once, when it is back', async () => {
    const url = await cluster.createDatabase();
    const errors: string[] = [];
    const recorder = await openPgHistoryWriter(url, { batchSize: 50, onError: (m) => errors.push(m) });
    const before = Array.from({ length: 100 }, () => makeExecution({ gateway: 'edge-1' }));
    for (const r of before) recorder.recordExecution(r);
    await recorder.flush();
    cluster.pause();
    const during = Array.from({ length: 300 }, () => makeExecution({ gateway: 'edge-1' }));
    for (const r of during) recorder.recordExecution(r); // never throws, never waits
    // Wait for the recorder to find out (an event, not a sleep): it says so in stats and onError.
    await expect.poll(() => recorder.stats().disconnected, { timeout: 30_000 }).toBe(true);
    expect(recorder.stats().queued).toBeGreaterThan(0);
    expect(errors.some((e) => /retrying/.test(e) && !e.includes('password'))).toBe(true);
    cluster.resume();
    await recorder.flush();
    const stats = recorder.stats();
    await recorder.close();
    expect(stats).toMatchObject({ queued: 0, failed: 0, lost: 0, disconnected: false });
    const store = await PgHistoryStore.open(url);
    try {
      expect(await store.countExecutions()).toBe(400);
      for (const r of [...before, ...during]) expect((await store.getExecutionRecord(r.id))?.id).toBe(r.id);
    } finally {
      await store.close();
    }
  });

  it('replays what a SIGKILLed recorder had only in its journal, exactly once, from the next recorder on that journal', async () => {
    const url = await cluster.createDatabase();
    const t = tempDir();
    try {
      const journal = join(t.dir, 'postgres-history');
      const N = 200;
      const script = fileURLToPath(new URL('./helpers/pg-record-then-die.ts', import.meta.url));
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
      const next = await openPgHistoryWriter(url, { journal: { path: journal } });
      await next.flush();
      await next.close();
      const store = await PgHistoryStore.open(url);
      try {
        expect(await store.countExecutions({ gateway: 'killed-gw' })).toBe(N);
      } finally {
        await store.close();
      }
      // Replayed and gone: nothing is left for a third recorder.
      expect(readdirSync(t.dir)).toEqual([]);
    } finally {
      t.cleanup();
    }
  });

  it('migrates once when many processes open a fresh database at the same moment', async () => {
    const url = await cluster.createDatabase();
    const pools = Array.from({ length: 6 }, () => createPool(url, { max: 1 }));
    try {
      const results = await Promise.all(pools.map((p) => runPgMigrations(p)));
      expect(results.filter((r) => r.from === 0)).toHaveLength(1);
      expect(results.every((r) => r.to === PG_LATEST_VERSION)).toBe(true);
      const rows = await pools[0]!.query('SELECT version FROM ic_schema_migrations ORDER BY version');
      expect(rows.rows.map((r) => r.version)).toEqual(Array.from({ length: PG_LATEST_VERSION }, (_, i) => i + 1));
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it('keeps recorded data across a reopen, and refuses a schema newer than this build', async () => {
    const url = await cluster.createDatabase();
    const recorder = await openPgHistoryWriter(url);
    const rec = makeExecution({ gateway: 'edge-2', text: 'kept across reopen' });
    recorder.recordExecution(rec);
    await recorder.close();
    const store = await PgHistoryStore.open(url); // migrations run again: nothing to do, nothing lost
    expect((await store.listExecutions({ search: 'reopen' })).items.map((i) => i.id)).toEqual([rec.id]);
    await store.close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`INSERT INTO ic_schema_migrations (version, name) VALUES (${PG_LATEST_VERSION + 1}, 'from-the-future')`);
    await admin.end();
    await expect(PgHistoryStore.open(url)).rejects.toThrow(/newer than this build knows.*upgrade/);
  });

  it('works with the CLI history commands: history, export, import, prune (--db or INTERCEPTOR_CONSOLE_DB)', async () => {
    const from = await cluster.createDatabase();
    const to = await cluster.createDatabase();
    const recorder = await openPgHistoryWriter(from);
    const recs = [makeExecution({ gateway: 'cli-gw', text: 'quarterly figures' }), makeExecution({ gateway: 'cli-gw', outcome: 'blocked' })];
    for (const r of recs) recorder.recordExecution(r);
    await recorder.close();
    const t = tempDir();
    const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      spawnSync(process.execPath, [cliPath, ...args], {
        encoding: 'utf8',
        env: { ...process.env, INTERCEPTOR_CONSOLE_DB: '', INTERCEPTOR_CONSOLE_DATA: t.dir, ...env },
      });
    try {
      const listed = cli(['history', '--db', from, '--search', 'figures', '--json']);
      expect(listed.status, listed.stderr).toBe(0);
      expect((JSON.parse(listed.stdout) as { id: string }[]).map((e) => e.id)).toEqual([recs[0]!.id]);
      const file = join(t.dir, 'export.jsonl');
      expect(cli(['export', '--out', file], { INTERCEPTOR_CONSOLE_DB: from }).status).toBe(0);
      const imported = cli(['import', '--db', to, file]);
      expect(imported.stdout).toContain('imported 2 execution(s)');
      const pruned = cli(['prune', '--db', to, '--max-executions', '1']);
      expect(pruned.stdout).toContain('deleted 1 execution(s)');
      const table = cli(['history', '--db', to]);
      expect(table.stdout).toContain('cli-gw');
      const refused = cli(['history', '--db', 'postgres://ic:s3cr3t@127.0.0.1:1/none']);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/cannot open the history database: .*connection refused/);
      expect(refused.stderr).not.toContain('s3cr3t');
    } finally {
      t.cleanup();
    }
  });

  it('never shows the password: in redacted URLs, failed connections and refused logins', async () => {
    expect(redactUrl('postgres://ic:s3cr3t@db.internal:5432/history')).toBe('postgres://ic:***@db.internal:5432/history');
    const port = new URL(cluster.url).port;
    const refused = await testConnection(`postgres://postgres:s3cr3t@127.0.0.1:${port}/no_such_db`);
    expect(refused).toEqual({ ok: false, error: expect.stringMatching(/database does not exist/) });
    expect(JSON.stringify(refused)).not.toContain('s3cr3t');
    await expect(PgHistoryStore.open('postgres://ic:s3cr3t@127.0.0.1:1/history')).rejects.toThrow(/connection refused/);
    await expect(PgHistoryStore.open('postgres://ic:s3cr3t@127.0.0.1:1/history')).rejects.not.toThrow(/s3cr3t/);
    expect(await testConnection(cluster.url)).toMatchObject({ ok: true, serverVersion: expect.stringMatching(/^\d+/) });
  });
});
