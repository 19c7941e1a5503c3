// A console on a PostgreSQL history whose login needs a password: the "Connect a client" stdio snippet
// passes the connection string without the password and an owner-only password file instead, and the
// gateway the snippet launches really logs in with it (the server checks the password: scram-sha-256).
// Neither the snippets, app.info nor any log line holds the password. Without the file the login is
// refused; with PGPASSWORD in the client's environment instead, it works.
import { spawnSync } from 'node:child_process';
import { statSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { bootstrapCore } from '../../src/main/services/bootstrap';
import type { AppCore } from '../../src/main/services/app-core';
import type { Logger } from '../../src/main/services/environment';
import { postgresUnavailable, startPostgresWithPasswordRole, type PostgresCluster } from '../fixtures/postgres-cluster';
import { cliPath, LineClient, rawBackend } from '../gateway/helpers';
import { repoRoot, tempDir } from './helpers';
import { existsSync } from 'node:fs';

const skip = postgresUnavailable() ?? (existsSync(cliPath) ? undefined : 'the CLI is not built (npm run build)');
const SECRET = 'pw-Secr3t-snippet';

describe.skipIf(skip)('Connect a client on a PostgreSQL history with a password', { timeout: 120_000 }, () => {
  let cluster: PostgresCluster;
  let url: string;
  let core: AppCore;
  const logs: string[] = [];
  const t = tempDir();
  const logger: Logger = { debug: (m) => logs.push(m), info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m) };

  beforeAll(async () => {
    ({ cluster, url } = await startPostgresWithPasswordRole(SECRET));
    core = await bootstrapCore({ mode: 'test', packageRoot: repoRoot, dataDir: t.dir, dbPath: url, logger });
    await core.start({ demo: false });
  }, 120_000);

  afterAll(async () => {
    await core?.shutdown();
    cluster?.stop();
    t.cleanup();
  });

  async function call<T>(method: string, input?: unknown): Promise<T> {
    const r = await core.dispatcher.dispatch(method, input);
    if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
    return r.value as T;
  }

  it('gives a snippet without the password whose gateway logs in with the password file', async () => {
    await call('gateways.create', { id: 'pg-stdio', config: { backend: rawBackend(), listen: { transport: 'stdio' } } });
    const snippets = await call<{ stdio: { claudeDesktop: string; command: string; dbNote?: string } }>('gateways.snippets', { id: 'pg-stdio' });
    expect(JSON.stringify(snippets)).not.toContain(SECRET);
    const info = await call<Record<string, unknown>>('app.info');
    expect(JSON.stringify(info)).not.toContain(SECRET);
    const launch = JSON.parse(snippets.stdio.claudeDesktop).mcpServers['pg-stdio'] as { command: string; args: string[]; env?: Record<string, string> };
    const at = launch.args.indexOf('--db-password-file');
    expect(at).toBeGreaterThan(0);
    const file = launch.args[at + 1]!;
    expect(snippets.stdio.dbNote).toContain(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(SECRET);
    expect(launch.args[launch.args.indexOf('--db') + 1]).toBe(url.replace(`:${SECRET}@`, '@'));

    // The client launches exactly this (its env has no PGPASSWORD and no INTERCEPTOR_CONSOLE_DB).
    const env = { ...process.env, ...launch.env, PGPASSWORD: '', INTERCEPTOR_CONSOLE_DB: '', INTERCEPTOR_CONSOLE_DATA: t.dir };
    expect(launch.command).toBe(process.execPath);
    const gw = new LineClient(launch.args, env);
    try {
      await gw.initialize();
      const answer = await gw.request(1, 'tools/call', { name: 'echo', arguments: { text: 'through the snippet' } });
      expect(answer.error, JSON.stringify(answer)).toBeUndefined();
    } finally {
      await gw.stop();
    }
    expect(gw.exit?.code, gw.stderr).toBe(0);
    expect(gw.stderr).not.toContain(SECRET);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const rows = await db.query(
        `SELECT count(*)::int AS n FROM executions e JOIN gateways g ON g.id = e.gateway_id WHERE g.name = 'pg-stdio' AND e.event = 'tools/call'`,
      );
      expect(rows.rows[0].n).toBe(1);
    } finally {
      await db.end();
    }

    // The password is really needed: without the file the server refuses the login; PGPASSWORD works instead.
    const without = launch.args.filter((_, i) => i !== at && i !== at + 1);
    const refused = new LineClient(without, env);
    await expect.poll(() => refused.exit, { timeout: 60_000 }).toBeDefined();
    expect(refused.exit?.code).not.toBe(0);
    expect(refused.stderr).toMatch(/password/i);
    const viaEnv = new LineClient(without, { ...env, PGPASSWORD: SECRET });
    try {
      await viaEnv.initialize();
    } finally {
      await viaEnv.stop();
    }
    expect(viaEnv.exit?.code, viaEnv.stderr).toBe(0);
    expect(logs.join('\n')).not.toContain(SECRET);

    // The history commands take the same file: reading the shared history needs no password on the command line.
    const history = (extra: string[]) =>
      spawnSync(process.execPath, [cliPath, 'history', '--db', url.replace(`:${SECRET}@`, '@'), '--gateway', 'pg-stdio', '--json', ...extra], {
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
    const read = history(['--db-password-file', file]);
    expect(read.status, read.stderr).toBe(0);
    expect((JSON.parse(read.stdout) as { event: string }[]).map((e) => e.event)).toEqual(['tools/call']);
    const noPassword = history([]);
    expect(noPassword.status, noPassword.stderr).toBe(1); // reported, not hung on the half-open login
    expect(noPassword.stderr).toMatch(/asks for a password/);
    const missing = history(['--db-password-file', `${file}.missing`]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/cannot read the PostgreSQL password file/);
  });
});
