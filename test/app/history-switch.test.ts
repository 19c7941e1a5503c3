// Settings → Data switches the console's history while it runs: a gateway the console runs keeps its
// session and records into the new store from the switch on; a store that cannot be opened (wrong
// password) leaves the current one in use and says so; the choice is saved without the password (an
// owner-only file holds it) and applies at the next start; a history named at start (--db) wins.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { Client } from '@modelcontextprotocol/client';
import { bootstrapCore } from '../../src/main/services/bootstrap';
import type { AppCore } from '../../src/main/services/app-core';
import { silentLogger } from '../../src/main/services/environment';
import { postgresUnavailable, startPostgresWithPasswordRole, type PostgresCluster } from '../fixtures/postgres-cluster';
import { freePort, rawBackend } from '../gateway/helpers';
import { connectHttpClient } from './mcp-client';
import { repoRoot, tempDir } from './helpers';

const skip = postgresUnavailable();
const SECRET = 'pw-Switch-s3cret';
const TOKEN = 'switch-token';

describe.skipIf(skip)('switching the history store in Settings', { timeout: 120_000 }, () => {
  let cluster: PostgresCluster;
  let url: string;
  const t = tempDir();
  const cores: AppCore[] = [];
  let client: Client | undefined;
  const savedEnv = process.env.INTERCEPTOR_CONSOLE_DB;

  beforeAll(async () => {
    delete process.env.INTERCEPTOR_CONSOLE_DB;
    ({ cluster, url } = await startPostgresWithPasswordRole(SECRET));
  }, 120_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    for (const c of cores) await c.shutdown();
    cluster?.stop();
    t.cleanup();
    if (savedEnv !== undefined) process.env.INTERCEPTOR_CONSOLE_DB = savedEnv;
  });

  const boot = async (dbPath?: string) => {
    const core = await bootstrapCore({ mode: 'test', packageRoot: repoRoot, dataDir: t.dir, logger: silentLogger, ...(dbPath ? { dbPath } : {}) });
    cores.push(core);
    await core.start({ demo: false });
    return core;
  };
  async function call<T>(core: AppCore, method: string, input?: unknown): Promise<T> {
    const r = await core.dispatcher.dispatch(method, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.value as T;
  }
  const rows = async (core: AppCore) => (await call<{ items: { gateway: string }[] }>(core, 'history.query', { filter: { gateway: 'sw' } })).items.length;
  const pgRows = async () => {
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      return (await db.query(`SELECT count(*)::int AS n FROM executions e JOIN gateways g ON g.id = e.gateway_id WHERE g.name = 'sw'`)).rows[0].n as number;
    } finally {
      await db.end();
    }
  };
  const echo = async (text: string) => {
    const r = await client!.callTool({ name: 'echo', arguments: { text } });
    expect(r.isError ?? false).toBe(false);
  };

  it('switches to PostgreSQL and back in-process; the running gateway records into the store in use', async () => {
    const core = await boot();
    const sqlitePath = join(t.dir, 'history.db');
    expect((await call<{ dbPath: string }>(core, 'app.info')).dbPath).toBe(sqlitePath);
    const port = await freePort();
    await call(core, 'gateways.create', {
      id: 'sw',
      start: true,
      config: { backend: rawBackend(), listen: { transport: 'http', host: '127.0.0.1', port, path: '/mcp', tokens: { [TOKEN]: 'tester' } } },
    });
    client = await connectHttpClient(`http://127.0.0.1:${port}/mcp`, TOKEN);
    await echo('into sqlite');
    await expect.poll(() => rows(core), { timeout: 20_000 }).toBe(1);

    // A wrong password: nothing changes, and the error says so without the password.
    const wrong = url.replace(SECRET, 'not-the-password');
    const refused = await core.dispatcher.dispatch('history.switchStore', { kind: 'postgres', url: wrong });
    expect(refused).toMatchObject({ ok: false, error: { code: 'failed' } });
    const message = refused.ok ? '' : refused.error.message;
    expect(message).toMatch(/refused the login.*keeps using .*history\.db/);
    expect(message).not.toContain('not-the-password');
    expect((await call<{ dbPath: string }>(core, 'app.info')).dbPath).toBe(sqlitePath);
    await echo('still sqlite');
    await expect.poll(() => rows(core), { timeout: 20_000 }).toBe(2);

    // The right one: switched, the same client session's next call lands in PostgreSQL.
    const switched = await call<{ kind: string; dbPath: string }>(core, 'history.switchStore', { kind: 'postgres', url });
    expect(switched).toEqual({ kind: 'postgres', dbPath: url.replace(SECRET, '***') });
    expect(await rows(core)).toBe(0);
    await echo('into postgres');
    await expect.poll(() => rows(core), { timeout: 20_000 }).toBe(1);
    expect(await pgRows()).toBe(1);
    // The Messages view reads the store in use too: the call's client request, from PostgreSQL.
    const messages = async () =>
      (
        await call<{ items: { method?: string }[] }>(core, 'messages.query', {
          filter: { gateway: 'sw', side: 'client', direction: 'in', method: 'tools/call' },
        })
      ).items.length;
    await expect.poll(messages, { timeout: 20_000 }).toBe(1);
    // Saved without the password, which sits in an owner-only file.
    const settingsText = readFileSync(join(t.dir, 'settings.json'), 'utf8');
    expect(settingsText).not.toContain(SECRET);
    expect(JSON.parse(settingsText).historyStore).toEqual({ kind: 'postgres', url: url.replace(`:${SECRET}`, '') });
    const files = (await import('node:fs')).readdirSync(t.dir).filter((f) => f.endsWith('.password'));
    expect(files).toHaveLength(1);
    expect(statSync(join(t.dir, files[0]!)).mode & 0o777).toBe(0o600);
    expect(JSON.stringify(await call(core, 'app.info'))).not.toContain(SECRET);

    // Back to the local file: its rows again, and the gateway records there.
    await call(core, 'history.switchStore', { kind: 'sqlite' });
    expect(await rows(core)).toBe(2);
    await echo('back in sqlite');
    await expect.poll(() => rows(core), { timeout: 20_000 }).toBe(3);
    expect(await pgRows()).toBe(1);
    await expect.poll(messages, { timeout: 20_000 }).toBe(3);
    await client.close();
    client = undefined;
    await core.shutdown();
  });

  it('starts on the saved PostgreSQL history (the password from its file); --db wins over it', async () => {
    const first = await boot();
    await call(first, 'history.switchStore', { kind: 'postgres', url });
    await first.shutdown();
    expect(existsSync(join(t.dir, 'settings.json'))).toBe(true);

    const second = await boot(); // the server checks the password: only the file can give it
    expect(await call<{ dbPath: string; storeError?: string }>(second, 'app.info')).toMatchObject({ dbPath: url.replace(SECRET, '***') });
    expect(await rows(second)).toBe(1);
    await second.shutdown();

    const named = await boot(join(t.dir, 'other.db'));
    expect(await call<{ dbPath: string; dbOverride?: string }>(named, 'app.info')).toMatchObject({ dbPath: join(t.dir, 'other.db'), dbOverride: '--db' });
    const r = await named.dispatcher.dispatch('history.switchStore', { kind: 'sqlite' });
    expect(r).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(r.ok ? '' : r.error.message).toMatch(/named at start by --db, which wins over Settings/);
  });
});
