// History store benchmarks (issue 4), side by side in one run:
// 1. Insert rate of full executions (3 interceptor steps, a sink event, search index) through the
//    batched recorder (worker-thread writer, then the in-thread fallback), against the 20,000/s
//    target, with the raw inserter (no queue, no thread) as the floor.
// 2. Filtered-page, count, search and aggregate latency on a generated database of 1,000,000
//    executions (generated once with scripts/generate-executions.ts, cached in the temp folder).
// Run: `npm run bench -- store` or `node --import tsx bench/index.ts store`.
// Env: BENCH_STORE_INSERTS (default 50000), BENCH_STORE_ROWS (default 1000000).
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionRecord } from '../src/shared/trace/execution';
import { encodeExecution } from '../src/main/history/model/encode/encode';
import { ExecutionInserter } from '../src/main/history/sqlite/sql/inserter';
import {
  countExecutions,
  gatewayCounters,
  getExecution,
  interceptorLatency,
  LATEST_VERSION,
  listExecutions,
  listSinkEvents,
  openStore,
  SqliteHistoryWriter,
  timeBuckets,
  type ExecutionFilter,
} from '../src/main/history/sqlite';
import { generateExecutions, rng, syntheticExecution, VOCABULARY } from '../scripts/generate-executions';
import { percentile, printTable } from './stats';

const INSERTS = Number(process.env.BENCH_STORE_INSERTS ?? 50_000);
const ROWS = Number(process.env.BENCH_STORE_ROWS ?? 1_000_000);
/** Bump when scripts/generate-executions.ts changes what it writes: the cached file is regenerated. */
const GENERATOR_VERSION = 1;
const TARGET_PER_SECOND = 20_000;
const FILTER_TARGET_MS = 150;

/**
 * n records from 2,000 distinct templates, each with its own id and time. (Generating all of them
 * up front would hold hundreds of MB, and the garbage collector would then dominate every path;
 * a gateway's heap holds only what is queued.)
 */
export function records(n: number): ExecutionRecord[] {
  const r = rng(7);
  const now = Date.now();
  const templates = Array.from({ length: Math.min(n, 2000) }, (_, i) => syntheticExecution(i, now, r));
  return Array.from({ length: n }, (_, i) => ({
    ...templates[i % templates.length]!,
    id: `00000000-0000-4000-9000-${i.toString(16).padStart(12, '0')}`,
    startedAt: new Date(now - n + i).toISOString(),
  }));
}

export async function recorderRate(mode: 'worker' | 'in-thread', recs: ExecutionRecord[], dir: string) {
  const path = join(dir, `insert-${mode}.db`);
  const recorder = SqliteHistoryWriter.open(path, { writerThread: mode === 'worker' });
  // Let the writer thread start before the clock runs (a gateway starts it once, at launch).
  await recorder.flush();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let enqueueMs = 0;
  // Sustained load: the producer feeds as fast as the writer keeps up (a queue of at most a few
  // batches), as a busy gateway would; a burst beyond the memory bound would measure the spill file.
  for (let i = 0; i < recs.length; i += 1000) {
    while (recorder.stats().queued > 4000) await new Promise((r) => setTimeout(r, 1));
    const e0 = performance.now();
    for (const rec of recs.slice(i, i + 1000)) recorder.recordExecution(rec);
    enqueueMs += performance.now() - e0;
  }
  await recorder.flush();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const stats = recorder.stats();
  await recorder.close();
  if (stats.written !== recs.length) throw new Error(`${mode}: wrote ${stats.written} of ${recs.length} (${stats.lastError ?? 'no error'})`);
  return {
    perSecond: (recs.length / ms) * 1000,
    enqueueUsPerRecord: (enqueueMs * 1000) / recs.length,
    cpuUsPerRecord: (cpu.user + cpu.system) / recs.length,
    stats,
  };
}

function rawRate(recs: ExecutionRecord[], dir: string): { perSecond: number; cpuUsPerRecord: number } {
  const store = openStore(join(dir, 'insert-raw.db'));
  const inserter = new ExecutionInserter(store.db);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < recs.length; i += 1000) {
    const batch = recs.slice(i, i + 1000).map((r) => encodeExecution(r));
    store.db
      .transaction(() => {
        inserter.beginBatch();
        for (const e of batch) inserter.write(e);
        inserter.endBatch();
      })
      .immediate();
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  store.close();
  return { perSecond: (recs.length / ms) * 1000, cpuUsPerRecord: (cpu.user + cpu.system) / recs.length };
}

export async function insertBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ic-bench-store-'));
  try {
    const recs = records(INSERTS);
    const raw = rawRate(recs, dir);
    const worker = await recorderRate('worker', recs, dir);
    const inThread = await recorderRate('in-thread', recs, dir);
    const row = (name: string, rate: number, cpuUs: number, enqueue?: number) => [
      name,
      Math.round(rate).toLocaleString('en-US'),
      `${(rate / TARGET_PER_SECOND).toFixed(2)}×`,
      `${cpuUs.toFixed(1)} µs`,
      enqueue === undefined ? '' : `${enqueue.toFixed(1)} µs`,
    ];
    printTable(
      `Insert rate: ${INSERTS.toLocaleString('en-US')} executions, 3 steps each (target ≥ ${TARGET_PER_SECOND.toLocaleString('en-US')}/s); ` +
        `CPU = all threads of the process per execution (on a busy machine wall time inflates, CPU time much less)`,
      ['path', 'executions/s', 'vs target', 'CPU/execution', 'recordExecution() cost'],
      [
        row('recorder, writer thread', worker.perSecond, worker.cpuUsPerRecord, worker.enqueueUsPerRecord),
        row('recorder, in-thread writer', inThread.perSecond, inThread.cpuUsPerRecord, inThread.enqueueUsPerRecord),
        row('raw inserter (no queue, no thread)', raw.perSecond, raw.cpuUsPerRecord),
      ],
    );
    console.log(
      `load average at the end: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')} on ${cpus().length} cores`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The cached 1M-row database (generated on first use; a few minutes). */
export function benchDatabase(rows = ROWS): string {
  const path = join(tmpdir(), `ic-bench-store-${rows}-s${LATEST_VERSION}-g${GENERATOR_VERSION}.db`);
  if (existsSync(path)) return path;
  const partial = `${path}.partial`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(partial + suffix, { force: true });
  process.stdout.write(`generating ${rows.toLocaleString('en-US')} executions into ${path} (cached for later runs)...\n`);
  const result = generateExecutions(partial, {
    count: rows,
    endMs: Date.UTC(2026, 0, 31),
    onProgress: (done) => {
      if (done % 100_000 === 0) process.stdout.write(`  ${done.toLocaleString('en-US')}\n`);
    },
  });
  renameSync(partial, path);
  process.stdout.write(`generated in ${(result.ms / 1000).toFixed(0)} s\n`);
  return path;
}

function time(fn: () => unknown, runs = 7): { median: number; p90: number; result: unknown } {
  fn(); // warm the statement cache and the pages this query touches
  const samples: number[] = [];
  let result: unknown;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    result = fn();
    samples.push(performance.now() - t0);
  }
  return { median: percentile(samples, 50), p90: percentile(samples, 90), result };
}

export function queryBench(): void {
  const path = benchDatabase();
  const store = openStore(path, { create: false });
  const db = store.db;
  try {
    const total = countExecutions(db);
    const newest = listExecutions(db, {}, { limit: 1 }).items[0]!;
    const dayAgo = Date.parse(newest.startedAt) - 86_400_000;
    const page =
      (filter: ExecutionFilter, limit = 100) =>
      () =>
        listExecutions(db, filter, { limit }).items.length;
    const second = listExecutions(db, { outcome: 'blocked' }, { limit: 100 }).nextCursor;
    // The generator picks words Zipf-like: the first is in nearly every execution, later ones rarer.
    const [common, uncommon, rare] = [VOCABULARY[0]!, VOCABULARY[40]!, VOCABULARY[3999]!];
    const cases: [string, () => unknown, boolean][] = [
      ['first page, no filter', page({}), true],
      ['gateway = staging-gateway', page({ gateway: 'staging-gateway' }), true],
      ['outcome = blocked', page({ outcome: 'blocked' }), true],
      ['outcome = blocked, 2nd page (cursor)', () => listExecutions(db, { outcome: 'blocked' }, { limit: 100, cursor: second }).items.length, true],
      ['method = prompts/get, outcome = error', page({ event: 'prompts/get', outcome: 'error' }), true],
      ['target = tool_39 (rare)', page({ target: 'tool_39' }), true],
      ['interceptor = samples/request-logger ran', page({ interceptor: 'samples/request-logger' }), true],
      ['blocked by samples/pii-validator', page({ blockedBy: 'samples/pii-validator' }), true],
      ['gateway + outcome + last 24 h', page({ gateway: 'dev-gateway', outcome: 'mutated', since: dayAgo }), true],
      [`search: common word (${common})`, page({ search: common }), true],
      [`search: uncommon word (${uncommon})`, page({ search: uncommon }), true],
      [`search: rare word (${rare})`, page({ search: rare }), true],
      ['search: unique reference', page({ search: 'order-777777' }), true],
      ['search common word + outcome = blocked', page({ search: common, outcome: 'blocked' }), true],
      ['search uncommon word + outcome = blocked', page({ search: uncommon, outcome: 'blocked' }), true],
      ['count: outcome = blocked', () => countExecutions(db, { outcome: 'blocked' }), false],
      ['count: all', () => countExecutions(db), false],
      ['count: search common word', () => countExecutions(db, { search: common }), false],
      ['count: search uncommon word', () => countExecutions(db, { search: uncommon }), false],
      ['count capped at 10,000: search common word', () => countExecutions(db, { search: common }, { cap: 10_000 }), false],
      ['detail of one execution', () => getExecution(db, newest.id)?.id, false],
      ['sink events page', () => listSinkEvents(db, {}, { limit: 100 }).items.length, false],
      ['counters per gateway, last 24 h', () => gatewayCounters(db, { since: dayAgo }).length, false],
      ['latency per interceptor, last 24 h', () => interceptorLatency(db, { since: dayAgo }).length, false],
      ['sparkline: 24 h in 5-min buckets', () => timeBuckets(db, { since: dayAgo, until: dayAgo + 86_400_000, bucketMs: 300_000 }).length, false],
    ];
    const rows = cases.map(([name, fn, isPage]) => {
      const t = time(fn);
      return [name, `${t.median.toFixed(1)} ms`, `${t.p90.toFixed(1)} ms`, isPage ? `${(t.median / FILTER_TARGET_MS).toFixed(2)}×` : '', String(t.result)];
    });
    printTable(
      `Queries on ${total.toLocaleString('en-US')} executions (${path}); pages of 100, target < ${FILTER_TARGET_MS} ms`,
      ['query', 'median', 'p90', 'vs target', 'rows/result'],
      rows,
    );
  } finally {
    store.close();
  }
}

export async function run(): Promise<void> {
  await insertBench();
  queryBench();
}
