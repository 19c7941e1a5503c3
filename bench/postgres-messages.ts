// The Messages view's queries on PostgreSQL next to SQLite, on the same 1,000,000 captured messages: the
// SQLite file of `npm run bench -- messages` (generated once by scripts/generate-messages.ts, cached in the
// temp folder) is copied row for row into a PostgreSQL database (once; reused while it has them), then each
// query of the view runs through the store port (HistoryStore) on both, median of 5 after a warm-up, in the
// same run. PostgreSQL: BENCH_PG_URL (a server you run), else a throwaway cluster (test/fixtures).
//
//   node --import tsx bench/postgres-messages.ts [--rows N]          (npm run bench -- postgres-messages)
import { existsSync, renameSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { generateMessages, MESSAGE_GATEWAY } from '../scripts/generate-messages';
import { LATEST_VERSION, openStore } from '../src/main/history/sqlite';
import type { HistoryStore } from '../src/main/history/model/history-store';
import type { MessageFilter } from '../src/main/history/sqlite/queries/messages';
import { SqliteHistoryStore } from '../src/main/history/sqlite/sqlite-history-store';
import { openPgPool, PgHistoryStore } from '../src/main/history/postgres';
import { startPostgres, type PostgresCluster } from '../test/fixtures/postgres-cluster';
import { percentile, printTable } from './stats';

function sqliteDatabase(rows: number): string {
  const path = join(tmpdir(), `ic-bench-messages-${rows}-s${LATEST_VERSION}.db`);
  if (existsSync(path)) return path;
  const partial = `${path}.partial`;
  rmSync(partial, { force: true });
  process.stdout.write(`generating ${rows.toLocaleString('en-US')} messages into ${path} (cached for later runs)...\n`);
  generateMessages(partial, { count: rows });
  renameSync(partial, path);
  return path;
}

interface SqliteRow {
  uuid: string;
  session_key: string | null;
  at_ms: number;
  side: string;
  direction: string;
  peer: string | null;
  kind: string;
  method: string | null;
  jsonrpc_id: string | number | null;
  size: number;
  execution_uuid: string | null;
  truncated: number;
  body: string;
}

/** Copies the SQLite file's messages into PostgreSQL in recording order, unless the database has them. */
async function pgDatabase(base: string, rows: number, sqlitePath: string): Promise<string> {
  const name = `bench_messages_${rows}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    if (!(await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(base);
  u.pathname = `/${name}`;
  const url = u.toString();
  const pool = await openPgPool(url, { max: 1, statementTimeoutMs: 0 });
  try {
    const have = Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM messages')).rows[0]!.n);
    if (have >= rows) return url;
    await pool.query('TRUNCATE messages');
    process.stdout.write(`copying ${rows.toLocaleString('en-US')} messages from SQLite into PostgreSQL (once)...\n`);
    const t0 = performance.now();
    await pool.query(`INSERT INTO gateways (name, created_at, updated_at) VALUES ($1, $2, $2) ON CONFLICT (name) DO NOTHING`, [
      MESSAGE_GATEWAY,
      new Date().toISOString(),
    ]);
    const gatewayId = (await pool.query<{ id: number }>('SELECT id FROM gateways WHERE name = $1', [MESSAGE_GATEWAY])).rows[0]!.id;
    const store = openStore(sqlitePath, { readonly: true, create: false });
    try {
      const select = store.db.prepare(
        'SELECT uuid, session_key, at_ms, side, direction, peer, kind, method, jsonrpc_id, size, execution_uuid, truncated, body FROM messages ORDER BY id',
      );
      let chunk: SqliteRow[] = [];
      let done = 0;
      const flush = async () => {
        await pool.query(
          `INSERT INTO messages (uuid, gateway_id, session_key, at_ms, side, direction, peer, kind, method, jsonrpc_id, size, execution_uuid, truncated, body)
           SELECT uuid, $2, session_key, at_ms, side, direction, peer, kind, method, NULLIF(jsonrpc_id, 'null'::jsonb), size, execution_uuid, truncated = 1, body
           FROM ROWS FROM (json_to_recordset($1::json) AS (uuid text, session_key text, at_ms bigint, side text, direction text, peer text, kind text, method text,
             jsonrpc_id jsonb, size int, execution_uuid text, truncated int, body text)) WITH ORDINALITY AS x(uuid, session_key, at_ms, side, direction, peer, kind,
             method, jsonrpc_id, size, execution_uuid, truncated, body, n)
           ORDER BY n`,
          [JSON.stringify(chunk), gatewayId],
        );
        done += chunk.length;
        chunk = [];
        process.stdout.write(`\r  ${done.toLocaleString('en-US')}`);
      };
      for (const row of select.iterate() as Iterable<SqliteRow>) {
        chunk.push(row);
        if (chunk.length === 5000) await flush();
      }
      if (chunk.length > 0) await flush();
    } finally {
      store.close();
    }
    await pool.query('VACUUM ANALYZE messages');
    process.stdout.write(`\n  copied in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    return url;
  } finally {
    await pool.end();
  }
}

const ms = (t: number) => `${t < 1 ? t.toFixed(2) : t.toFixed(1)} ms`;

type Query = [name: string, run: (store: HistoryStore, session: string) => Promise<unknown>];

const FILTERS: [string, Partial<MessageFilter>][] = [
  ['side = interceptor', { side: 'interceptor' }],
  ['kind = error', { kind: 'error' }],
  ['method = tools/call', { method: 'tools/call' }],
  ['text search, common word', { search: 'kaka' }],
  ['text search, no match (one bounded step)', { search: 'no-such-text-anywhere' }],
];

const QUERIES: Query[] = [
  ['first page, all sessions', (s) => s.listMessages({ gateway: MESSAGE_GATEWAY }, { limit: 200 })],
  ['first page, one session', (s, session) => s.listMessages({ gateway: MESSAGE_GATEWAY, session }, { limit: 200 })],
  ['sessions list', (s) => s.listMessageSessions(MESSAGE_GATEWAY)],
  ['method suggestions', (s) => s.messageMethods(MESSAGE_GATEWAY)],
  ...FILTERS.flatMap(([name, f]): Query[] => [
    [`${name}, all sessions`, (s) => s.listMessages({ gateway: MESSAGE_GATEWAY, ...f }, { limit: 200 })],
    [`${name}, one session`, (s, session) => s.listMessages({ gateway: MESSAGE_GATEWAY, session, ...f }, { limit: 200 })],
  ]),
];

async function timings(store: HistoryStore): Promise<Map<string, number>> {
  const sessions = await store.listMessageSessions(MESSAGE_GATEWAY);
  // The same session on both engines: the first in session-id order.
  const session = sessions
    .map((s) => s.sessionId)
    .filter((s): s is string => s !== null)
    .sort()[0]!;
  const out = new Map<string, number>();
  for (const [name, run] of QUERIES) {
    await run(store, session);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await run(store, session);
      times.push(performance.now() - t0);
    }
    out.set(name, percentile(times, 50));
  }
  return out;
}

export async function run(options: { rows?: number } = {}): Promise<void> {
  const rows = options.rows ?? 1_000_000;
  const sqlitePath = sqliteDatabase(rows);
  let cluster: PostgresCluster | undefined;
  const base = process.env.BENCH_PG_URL ?? (cluster = await startPostgres()).url;
  try {
    const url = await pgDatabase(base, rows, sqlitePath);
    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const sqlite = new SqliteHistoryStore(openStore(sqlitePath, { readonly: true, create: false }), true);
    const pgStore = await PgHistoryStore.open(url);
    let a: Map<string, number>;
    let b: Map<string, number>;
    try {
      a = await timings(sqlite);
      b = await timings(pgStore);
    } finally {
      await sqlite.close();
      await pgStore.close();
    }
    printTable(
      `Messages view on ${rows.toLocaleString('en-US')} messages through the store port (median of 5, pages of 200)`,
      ['query', 'SQLite', 'PostgreSQL', 'ratio PG/SQLite'],
      QUERIES.map(([name]) => [name, ms(a.get(name)!), ms(b.get(name)!), `${(b.get(name)! / a.get(name)!).toFixed(2)}×`]),
    );
  } finally {
    cluster?.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { rows: { type: 'string' } } });
  await run(values.rows ? { rows: Number(values.rows) } : {});
}
