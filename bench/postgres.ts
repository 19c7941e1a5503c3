// PostgreSQL history store benchmarks (issue 18), each side by side with SQLite in the same run:
// 1. Insert rate of the same 50,000 executions through each store's recorder.
// 2. Many writers: 4 processes recording into one PostgreSQL at once vs 1 process (aggregate rate).
// 3. Traffic queries on 1,000,000 executions (first page, filtered pages, search, counts) in PostgreSQL
//    next to the same queries on the SQLite bench database.
// PostgreSQL: BENCH_PG_URL (a server you run; its database is filled once and reused), else a
// throwaway cluster started here (Debian's postgresql package, as the tests do).
// Run: `npm run bench -- postgres`. Env: BENCH_STORE_INSERTS (50000), BENCH_PG_ROWS (1000000), BENCH_PG_ROUNDS (2),
// BENCH_PG_BASELINE (an older build's folder, see baselineRecorder).
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openStore, type ExecutionFilter } from '../src/main/history/sqlite';
import { SqliteHistoryStore } from '../src/main/history/sqlite/sqlite-history-store';
import type { HistoryStore } from '../src/main/history/model/history-store';
import { encodeExecution } from '../src/main/history/model/encode/encode';
import { IdCache, insertItems, internNames } from '../src/main/history/postgres/batch-insert';
import { openPgPool, openPgHistoryWriter, PgHistoryStore } from '../src/main/history/postgres';
import { DEFAULT_MAX_IN_FLIGHT } from '../src/main/history/postgres/pg-history-writer';
import { rng, syntheticExecution, VOCABULARY } from '../scripts/generate-executions';
import { startPostgres, type PostgresCluster } from '../test/fixtures/postgres-cluster';
import { benchDatabase, records, recorderRate } from './store';
import { percentile, printTable } from './stats';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const INSERTS = Number(process.env.BENCH_STORE_INSERTS ?? 50_000);
const ROWS = Number(process.env.BENCH_PG_ROWS ?? 1_000_000);
const WRITERS = 4;
const ROUNDS = Number(process.env.BENCH_PG_ROUNDS ?? 2);

interface Server {
  /** A database of this name on the server (created if missing). */
  database(name: string, fresh: boolean): Promise<string>;
  stop(): void;
}

async function server(): Promise<Server> {
  const given = process.env.BENCH_PG_URL;
  let cluster: PostgresCluster | undefined;
  const base = given ?? (cluster = await startPostgres()).url;
  return {
    async database(name, fresh) {
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      try {
        if (fresh) await admin.query(`DROP DATABASE IF EXISTS ${name}`);
        const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
        if (!exists) await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      const u = new URL(base);
      u.pathname = `/${name}`;
      return u.toString();
    },
    stop: () => cluster?.stop(),
  };
}

type OpenRecorder = (
  url: string,
  options?: { maxInFlight?: number; writerThread?: boolean },
) => Promise<{
  recordExecution(r: ReturnType<typeof records>[number]): void;
  stats(): { queued: number; written: number; lastError?: string };
  flush(): Promise<void>;
  close(): Promise<void>;
}>;

async function pgRecorderRate(open: OpenRecorder, url: string, recs: ReturnType<typeof records>, maxInFlight?: number, writerThread?: boolean) {
  const recorder = await open(url, { ...(maxInFlight === undefined ? {} : { maxInFlight }), ...(writerThread === undefined ? {} : { writerThread }) });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < recs.length; i += 1000) {
    while (recorder.stats().queued > 4000) await new Promise((r) => setTimeout(r, 1));
    for (const rec of recs.slice(i, i + 1000)) recorder.recordExecution(rec);
  }
  await recorder.flush();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const stats = recorder.stats();
  await recorder.close();
  if (stats.written !== recs.length) throw new Error(`postgres: wrote ${stats.written} of ${recs.length} (${stats.lastError ?? 'no error'})`);
  return { ms, cpuUs: cpu.user + cpu.system };
}

/**
 * BENCH_PG_BASELINE=<folder holding an older src/> (e.g. `git archive main src | tar -x -C /tmp/pg-base`, with
 * a node_modules link) adds that build's recorder as a variant: before and after side by side, same load.
 */
async function baselineRecorder(): Promise<OpenRecorder | undefined> {
  const dir = process.env.BENCH_PG_BASELINE;
  if (!dir) return undefined;
  // The engine's entry moved with issue 27 (store-postgres/ → history/postgres/): either layout is read.
  const entry = ['src/main/history/postgres/index.ts', 'src/main/store-postgres/index.ts'].map((p) => join(dir, p)).find((p) => existsSync(p));
  if (!entry) throw new Error(`BENCH_PG_BASELINE=${dir} holds no PostgreSQL history entry`);
  const mod = (await import(entry)) as { openPgHistoryWriter: OpenRecorder };
  return mod.openPgHistoryWriter;
}

async function insertBench(srv: Server): Promise<void> {
  const recs = records(INSERTS);
  const dir = mkdtempSync(join(tmpdir(), 'ic-bench-pg-'));
  const baseline = await baselineRecorder();
  const variants: { name: string; run: (db: string) => Promise<{ ms: number; cpuUs: number }> }[] = [
    {
      name: 'SQLite (writer thread)',
      run: async () => {
        // A file of its own each round: the same ids into last round's file would all be duplicates.
        const r = await recorderRate('worker', recs, mkdtempSync(join(dir, 'round-')));
        return { ms: (recs.length / r.perSecond) * 1000, cpuUs: r.cpuUsPerRecord * recs.length };
      },
    },
    ...(baseline ? [{ name: 'PostgreSQL, baseline build (BENCH_PG_BASELINE)', run: (db: string) => pgRecorderRate(baseline, db, recs) }] : []),
    { name: 'PostgreSQL, 1 batch in flight', run: (db: string) => pgRecorderRate(openPgHistoryWriter, db, recs, 1) },
    { name: `PostgreSQL, up to ${DEFAULT_MAX_IN_FLIGHT} batches in flight (default)`, run: (db: string) => pgRecorderRate(openPgHistoryWriter, db, recs) },
    // The default writes batches on the recorder's own thread (writer-thread/): the same on the caller's thread.
    {
      name: `PostgreSQL, ${DEFAULT_MAX_IN_FLIGHT} in flight, batches written on the caller's thread`,
      run: (db: string) => pgRecorderRate(openPgHistoryWriter, db, recs, undefined, false),
    },
  ];
  const totals = variants.map(() => ({ ms: 0, cpuUs: 0, n: 0 }));
  try {
    // Alternated rounds: the machine's load drifts, and hits every variant alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, v] of variants.entries()) {
        const r = await v.run(await srv.database('bench_insert', true));
        totals[i]!.ms += r.ms;
        totals[i]!.cpuUs += r.cpuUs;
        totals[i]!.n += recs.length;
      }
    }
    const rate = (t: { ms: number; n: number }) => (t.n / t.ms) * 1000;
    const sqlite = rate(totals[0]!);
    const one = rate(totals[baseline ? 2 : 1]!);
    printTable(
      `Insert rate: the same ${INSERTS.toLocaleString('en-US')} executions (3 steps each) through each store's recorder, batches of 500, ${ROUNDS} alternated rounds; CPU = this process per execution`,
      ['store', 'executions/s', 'vs SQLite', 'vs 1 in flight', 'CPU/execution (client side)'],
      variants.map((v, i) => {
        const t = totals[i]!;
        return [
          v.name,
          Math.round(rate(t)).toLocaleString('en-US'),
          `${(rate(t) / sqlite).toFixed(2)}×`,
          i === 0 ? '' : `${(rate(t) / one).toFixed(2)}×`,
          `${(t.cpuUs / t.n).toFixed(1)} µs`,
        ];
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function writer(url: string, count: number, offset: number, host: string): Promise<{ start: number; end: number; written: number }> {
  const script = fileURLToPath(new URL('./postgres-writer.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, url, String(count), String(offset), host], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as { start: number; end: number; written: number }) : reject(new Error(`writer exited ${code}`)),
    );
  });
}

async function writersBench(srv: Server): Promise<void> {
  const run = async (n: number) => {
    const url = await srv.database(`bench_writers_${n}`, true);
    await (await openPgPool(url, { max: 1 })).end(); // migrate first, as a deployment's first gateway does
    const per = Math.floor(INSERTS / n);
    const results = await Promise.all(Array.from({ length: n }, (_, k) => writer(url, per, k * per, `w${k + 1}`)));
    const written = results.reduce((a, r) => a + r.written, 0);
    if (written !== per * n) throw new Error(`${n} writers wrote ${written} of ${per * n}`);
    const ms = Math.max(...results.map((r) => r.end)) - Math.min(...results.map((r) => r.start));
    return (written / ms) * 1000;
  };
  const one = await run(1);
  const four = await run(WRITERS);
  printTable(
    `Many writers: ${INSERTS.toLocaleString('en-US')} executions into one PostgreSQL, by 1 process vs ${WRITERS} processes at once (aggregate; ${cpus().length} cores shared with the server)`,
    ['writers', 'executions/s (aggregate)', 'vs 1 writer'],
    [
      ['1 process', Math.round(one).toLocaleString('en-US'), '1.00×'],
      [`${WRITERS} processes`, Math.round(four).toLocaleString('en-US'), `${(four / one).toFixed(2)}×`],
    ],
  );
}

/** Executions generated one by one (the SQLite bench's generator, same seed); the rest are SQL copies of them. */
const GENERATED = Math.min(ROWS, Number(process.env.BENCH_PG_GENERATED ?? 50_000));

/**
 * Fills the database with ROWS executions, unless it has them: GENERATED synthetic executions written
 * through the store's batch insert, then copied inside PostgreSQL (new ids and uuids, each copy moved 30
 * days further back, steps and sink events copied with them) up to ROWS. Loading a million through the
 * client on this machine takes over half an hour; the copies keep the words, outcomes and gateways of
 * the generated ones, so filters and searches match the same share of rows as in the SQLite database.
 */
async function queryDatabase(srv: Server): Promise<string> {
  const url = await srv.database(`bench_rows_${ROWS}`, false);
  const pool = await openPgPool(url, { max: 2, statementTimeoutMs: 0 });
  try {
    const have = Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM executions')).rows[0]!.n);
    if (have >= ROWS) return url;
    await pool.query('TRUNCATE executions, steps, sink_events, sessions CASCADE');
    process.stdout.write(
      `loading ${ROWS.toLocaleString('en-US')} executions into PostgreSQL (${GENERATED.toLocaleString('en-US')} generated, the rest copied in SQL)...\n`,
    );
    const r = rng(1);
    const end = Date.UTC(2026, 0, 31);
    const span = 30 * 86_400_000;
    const step = span / GENERATED;
    const cache = new IdCache();
    const t0 = performance.now();
    const client = await pool.connect();
    try {
      for (let done = 0; done < GENERATED;) {
        const n = Math.min(2000, GENERATED - done);
        const items = Array.from({ length: n }, (_, k) => {
          const rec = syntheticExecution(done + k, Math.round(end - span + (done + k) * step), r);
          return { ...encodeExecution(rec), json: JSON.stringify(rec) };
        });
        await internNames(client, items, 'bench', cache);
        await client.query('BEGIN');
        await insertItems(client, items, 'bench', cache);
        await client.query('COMMIT');
        done += n;
      }
      const copies = Math.ceil(ROWS / GENERATED) - 1;
      for (let k = 1; k <= copies; k++) {
        const limit = Math.min(GENERATED, ROWS - k * GENERATED);
        await client.query('BEGIN');
        await client.query(`CREATE TEMP TABLE m ON COMMIT DROP AS
          SELECT id AS old_id, nextval(pg_get_serial_sequence('executions', 'id')) AS new_id FROM executions WHERE uuid NOT LIKE '%-c%' ORDER BY id LIMIT ${limit}`);
        await client.query(`INSERT INTO executions (id, uuid, gateway_id, session_key, event, target, started_ms, started_at, duration_ms, outcome, error_code,
            blocked_interceptor_id, blocked_phase, simulated, replay_of, search, record_json)
          OVERRIDING SYSTEM VALUE
          SELECT m.new_id, e.uuid || '-c${k}', e.gateway_id, e.session_key || '-c${k}', e.event, e.target, e.started_ms - ${k * span}, NULL, e.duration_ms, e.outcome, e.error_code,
            e.blocked_interceptor_id, e.blocked_phase, e.simulated, e.replay_of, e.search, e.record_json
          FROM m JOIN executions e ON e.id = m.old_id`);
        await client.query(`INSERT INTO steps SELECT m.new_id, s.seq, s.phase, s.interceptor_id, s.type, s.outcome, s.skipped, s.shadow, s.failed, s.duration_ms
          FROM m JOIN steps s ON s.execution_id = m.old_id`);
        await client.query(`INSERT INTO sink_events SELECT m.new_id, s.seq, s.gateway_id, s.interceptor_id, s.event, s.phase, s.recorded, s.metrics_json, s.error_json,
            s.at_ms - ${k * span}, s.started_ms - ${k * span} FROM m JOIN sink_events s ON s.execution_id = m.old_id`);
        await client.query('COMMIT');
      }
    } finally {
      client.release();
    }
    await pool.query('VACUUM ANALYZE');
    process.stdout.write(`loaded in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    return url;
  } finally {
    await pool.end();
  }
}

async function time(fn: () => Promise<unknown>, runs = 7): Promise<{ median: number; result: unknown }> {
  await fn(); // warm caches and prepared statements
  const samples: number[] = [];
  let result: unknown;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    result = await fn();
    samples.push(performance.now() - t0);
  }
  return { median: percentile(samples, 50), result };
}

async function queryBench(srv: Server): Promise<void> {
  const pgStore = await PgHistoryStore.open(await queryDatabase(srv));
  const sqliteStore = new SqliteHistoryStore(openStore(benchDatabase(ROWS), { create: false }), true);
  try {
    const [common, uncommon, rare] = [VOCABULARY[0]!, VOCABULARY[40]!, VOCABULARY[3999]!];
    const cases: [string, (s: HistoryStore) => Promise<unknown>][] = [
      ['first page, no filter', async (s) => (await s.listExecutions({}, { limit: 100 })).items.length],
      ['filtered page: gateway = staging-gateway', async (s) => (await s.listExecutions({ gateway: 'staging-gateway' }, { limit: 100 })).items.length],
      ['filtered page: outcome = blocked', async (s) => (await s.listExecutions({ outcome: 'blocked' }, { limit: 100 })).items.length],
      [
        'filtered page: method + outcome',
        async (s) => (await s.listExecutions({ event: 'prompts/get', outcome: 'error' } as ExecutionFilter, { limit: 100 })).items.length,
      ],
      [`search: common word (${common})`, async (s) => (await s.listExecutions({ search: common }, { limit: 100 })).items.length],
      [`search: uncommon word (${uncommon})`, async (s) => (await s.listExecutions({ search: uncommon }, { limit: 100 })).items.length],
      [`search: rare word (${rare})`, async (s) => (await s.listExecutions({ search: rare }, { limit: 100 })).items.length],
      ['search: unique reference', async (s) => (await s.listExecutions({ search: 'order-777777' }, { limit: 100 })).items.length],
      ['count: all', (s) => s.countExecutions()],
      ['count: outcome = blocked', (s) => s.countExecutions({ outcome: 'blocked' })],
      ['count capped at 10,000: search common word', (s) => s.countExecutions({ search: common }, { cap: 10_000 })],
    ];
    const rows: string[][] = [];
    for (const [name, fn] of cases) {
      const a = await time(() => fn(sqliteStore));
      const b = await time(() => fn(pgStore));
      rows.push([
        name,
        `${a.median.toFixed(1)} ms`,
        `${b.median.toFixed(1)} ms`,
        `${(b.median / a.median).toFixed(2)}×`,
        `${String(a.result)} / ${String(b.result)}`,
      ]);
    }
    printTable(
      `Traffic queries on ${(await pgStore.countExecutions()).toLocaleString('en-US')} executions, SQLite vs PostgreSQL (median of 7, pages of 100)`,
      ['query', 'SQLite', 'PostgreSQL', 'PG / SQLite', 'rows/result (SQLite / PG)'],
      rows,
    );
  } finally {
    await pgStore.close();
    await sqliteStore.close();
  }
}

export async function run(): Promise<void> {
  const srv = await server();
  try {
    // BENCH_PG_PARTS=insert,writers,queries (default all): e.g. only the queries, on a BENCH_PG_URL already filled.
    const parts = (process.env.BENCH_PG_PARTS ?? 'insert,writers,queries').split(',');
    if (parts.includes('insert')) await insertBench(srv);
    if (parts.includes('writers')) await writersBench(srv);
    if (parts.includes('queries')) await queryBench(srv);
    console.log(
      `load average at the end: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')} on ${cpus().length} cores`,
    );
  } finally {
    srv.stop();
  }
}
