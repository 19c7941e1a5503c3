// One redaction rule for every writer ([path-fidelity] item 8). With `redactPaths: ["arguments.password"]`
// the password of a tools/call must be stored nowhere: not in the execution, not in any captured message,
// including the `interceptor/invoke` that carries the payload one level down (params.payload), whichever
// process writes: the console (Settings → redacted paths), or the headless gateway of its "Connect a client"
// stdio snippet (which applied no redaction at all), into SQLite or PostgreSQL. Real processes: the `web`
// console with its demo gateway, the `gateway` CLI launched over stdio by an SDK client, server-everything
// behind the sample interceptor server; the stored bytes are searched table by table, column by column.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from '../gateway/everything-clients';
import { cliPath, everythingBackend, waitFor, writeConfig } from '../gateway/helpers';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../fixtures/postgres-cluster';
import { tempDir } from '../store/fixtures';

const SECRET = 'hunter2-redaction-probe-PW';
const VISIBLE = 'redaction-probe-visible';
const REDACT = { redactPaths: ['arguments.password'] };

const gatewayConfig = () => ({
  backend: everythingBackend,
  staticInterceptors: [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] }],
  overrides: { 'samples/tool-allowlist': { config: { allow: ['*'] } } },
});

/** Where each needle is stored: `table.column` → rows holding it. */
function sqliteHits(path: string, needle: string): Record<string, number> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const hits: Record<string, number> = {};
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'executions_fts%'").pluck().all() as string[];
    for (const t of tables) {
      for (const c of (db.prepare(`PRAGMA table_info("${t}")`).all() as { name: string }[]).map((r) => r.name)) {
        const n = (db.prepare(`SELECT count(*) AS n FROM "${t}" WHERE instr(CAST("${c}" AS TEXT), ?) > 0`).get(needle) as { n: number }).n;
        if (n) hits[`${t}.${c}`] = n;
      }
    }
    return hits;
  } finally {
    db.close();
  }
}

async function postgresHits(url: string, needle: string): Promise<Record<string, number>> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const hits: Record<string, number> = {};
    const tables = (await db.query<{ t: string }>("SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public'")).rows.map((r) => r.t);
    for (const t of tables) {
      // The row as text: every column, the lz4-compressed record JSON decompressed.
      const n = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${t}" AS r WHERE strpos(r::text, $1) > 0`, [needle])).rows[0]!.n;
      if (n) hits[t] = n;
    }
    return hits;
  } finally {
    await db.end();
  }
}

/** The stored rows are in (the visible argument shows in executions and messages, interceptor/invoke included), and the secret is nowhere. */
async function expectRedacted(hits: (needle: string) => Promise<Record<string, number>> | Record<string, number>, invokeRows: () => Promise<number> | number) {
  const visible = await waitFor(
    async () => {
      const now = await hits(VISIBLE);
      const stored = Object.keys(now).some((k) => k.startsWith('messages')) && Object.keys(now).some((k) => k.startsWith('execution'));
      return stored && (await invokeRows()) > 0 ? now : undefined;
    },
    20_000,
    'the visible argument in executions, messages and interceptor/invoke rows',
    200,
  );
  expect(
    Object.keys(visible).some((k) => k.startsWith('execution')),
    JSON.stringify(visible),
  ).toBe(true);
  expect(
    Object.keys(visible).some((k) => k.startsWith('messages')),
    JSON.stringify(visible),
  ).toBe(true);
  expect(await invokeRows()).toBeGreaterThan(0);
  expect(await hits(SECRET)).toEqual({});
}

/** The headless gateway as the console's stdio snippet launches it, driven by an SDK client over stdio. */
async function headlessCall(db: string, dataDir: string): Promise<void> {
  const config = writeConfig(gatewayConfig());
  const client = await connectClient('v2', {
    stdio: {
      command: process.execPath,
      args: [cliPath, 'gateway', '--config', config, '--listen', 'stdio', '--gateway-id', 'snippet', '--db', db, '--data-dir', dataDir, '--no-watch'],
    },
  });
  try {
    const r = await client.callTool('echo', { message: VISIBLE, password: SECRET });
    expect(r.content[0]!.text).toBe(`Echo: ${VISIBLE}`);
  } finally {
    await client.close();
  }
}

function dataFolder(prefix: string): { dir: string; dataDir: string; cleanup: () => void } {
  const t = tempDir(prefix);
  const dataDir = join(t.dir, 'data');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(REDACT));
  return { ...t, dataDir };
}

describe('redaction at rest, every writer', { timeout: 120_000 }, () => {
  it('the headless gateway (the stdio snippet) recording into SQLite', async () => {
    const t = dataFolder('ic-redact-sqlite-');
    try {
      const db = join(t.dir, 'history.db');
      await headlessCall(db, t.dataDir);
      const invokeRows = () => {
        const h = new Database(db, { readonly: true });
        try {
          return (h.prepare("SELECT count(*) AS n FROM messages WHERE method = 'interceptor/invoke'").get() as { n: number }).n;
        } finally {
          h.close();
        }
      };
      await expectRedacted((n) => sqliteHits(db, n), invokeRows);
    } finally {
      t.cleanup();
    }
  });

  it('the console and its demo gateway, the setting changed in Settings', async () => {
    const t = tempDir('ic-redact-console-');
    const dataDir = join(t.dir, 'data');
    let child: ChildProcess | undefined;
    try {
      child = spawn(process.execPath, [cliPath, 'web', '--port', '0', '--data-dir', dataDir], {
        env: { ...process.env, INTERCEPTOR_CONSOLE_DB: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
      await waitFor(() => /#token=[\w-]+/.test(out), 30_000, `the console URL:\n${out}`);
      const url = new URL(/(http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/.exec(out)![1]!);
      const api = async (name: string, input: unknown) => {
        const res = await fetch(new URL(`/api/call/${name}`, url), {
          method: 'POST',
          headers: { authorization: `Bearer ${url.hash.replace('#token=', '')}` },
          body: JSON.stringify(input),
        });
        return (await res.json()) as { ok: boolean; value?: unknown; error?: unknown };
      };
      expect((await api('settings.update', REDACT)).ok).toBe(true);
      const demoFile = join(dataDir, 'gateways', 'demo.json');
      let gatewayUrl: string | undefined;
      await waitFor(
        () => {
          void api('gateways.list', {}).then((r) => {
            const demo = ((r.value ?? []) as { id: string; status: string; listen: { url?: string } }[]).find((g) => g.id === 'demo');
            if (demo?.status === 'running') gatewayUrl = demo.listen.url;
          });
          return gatewayUrl !== undefined;
        },
        60_000,
        `the demo gateway to run:\n${out}`,
      );
      const demo = JSON.parse(readFileSync(demoFile, 'utf8')) as { listen: { tokens: Record<string, string> } };
      const client = await connectClient('v2', { http: { url: gatewayUrl!, headers: { Authorization: `Bearer ${Object.keys(demo.listen.tokens)[0]}` } } });
      try {
        const r = await client.callTool('echo', { message: VISIBLE, password: SECRET });
        expect(r.content[0]!.text).toBe(`Echo: ${VISIBLE}`);
      } finally {
        await client.close();
      }
      const db = join(dataDir, 'history.db');
      const invokeRows = () => {
        const h = new Database(db, { readonly: true });
        try {
          return (h.prepare("SELECT count(*) AS n FROM messages WHERE method = 'interceptor/invoke'").get() as { n: number }).n;
        } finally {
          h.close();
        }
      };
      await expectRedacted((n) => sqliteHits(db, n), invokeRows);
    } finally {
      if (child && child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child!.once('exit', r));
      }
      t.cleanup();
    }
  });

  describe.skipIf(postgresUnavailable())('PostgreSQL', () => {
    let cluster: PostgresCluster;
    beforeAll(async () => {
      cluster = await startPostgres();
    }, 60_000);
    afterAll(() => cluster?.stop());

    it('the headless gateway (the stdio snippet) recording into PostgreSQL', async () => {
      const t = dataFolder('ic-redact-pg-');
      try {
        const url = await cluster.createDatabase();
        await headlessCall(url, t.dataDir);
        const invokeRows = async () => {
          const db = new pg.Client({ connectionString: url });
          await db.connect();
          try {
            return (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE method = 'interceptor/invoke'")).rows[0]!.n;
          } finally {
            await db.end();
          }
        };
        await expectRedacted((n) => postgresHits(url, n), invokeRows);
      } finally {
        t.cleanup();
      }
    });
  });
});
