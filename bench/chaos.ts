// The gateway's fault model in figures (issue #15), side by side in one run:
// - the chaos load (test/chaos/load.ts: 1,000 tools/call, 50 in flight, faults on) with no kill, with
//   SIGTERM and with SIGKILL mid-load: calls sent / answered / ran at the backend / recorded;
// - time to recover from each fault (a fault's call, then the next call that succeeds on that session);
// - recording on vs off throughput, the journal on (target ≥ 0.95×), rounds alternated;
// - the samples' regex scaling (bench/regex.ts): 1 MB vs 64 KB adversarial input, linear ≈ 16.
// Run: `npm run bench -- chaos` (builds the CLI first).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chaosBackend, chaosDir, cliPath, GatewayProcess, HttpSession, processesMatching, waitFor } from '../test/chaos/harness';
import { runLoad, startChaosGateway, tally } from '../test/chaos/load';
import { measureSampleScaling, printSampleScaling } from './regex';
import { printTable } from './stats';

const LOAD = { total: 1000, inFlight: 50, sessions: 5 };
const ROUNDS = Number(process.env.BENCH_CHAOS_ROUNDS ?? 4);
const CALLS = Number(process.env.BENCH_CHAOS_CALLS ?? 1500);

async function loadRow(signal?: 'SIGTERM' | 'SIGKILL'): Promise<string[]> {
  const d = chaosDir();
  try {
    const gw = startChaosGateway(d, { interceptors: signal === undefined });
    await gw.ready();
    const run = await runLoad(d, gw, { ...LOAD, faults: true, ...(signal ? { signal, killAfter: 500 } : {}) });
    let recovery = '';
    if (!signal) await gw.stop('SIGTERM');
    else {
      await gw.exited;
      const exitMs = performance.now() - run.killedAt!;
      if (signal === 'SIGTERM') recovery = `exit ${exitMs.toFixed(0)} ms after the signal`;
      else {
        // The next gateway on the same history replays the dead one's journal.
        const t0 = performance.now();
        const next = new GatewayProcess(d, { backend: chaosBackend(d) }, ['--quiet']);
        await next.ready();
        await next.stop('SIGTERM');
        recovery = `restart + journal replay ${(performance.now() - t0).toFixed(0)} ms`;
      }
    }
    await waitFor(() => processesMatching(d.dir).length === 0, 20_000, 'no process left');
    const { ran, recorded, integrity } = tally(d);
    const recordedSet = new Set(recorded);
    const ranRecorded = ran.filter((k) => recordedSet.has(k)).length;
    const confirmedOld = [...run.confirmedAt].filter(([, at]) => run.killedAt !== undefined && at < run.killedAt - 1000).map(([k]) => k);
    const oldKept = signal === 'SIGKILL' ? `${confirmedOld.filter((k) => recordedSet.has(k)).length}/${confirmedOld.length}` : '-';
    return [
      signal ?? 'no kill',
      String(run.sent),
      String(run.answered),
      String(ran.length),
      String(recorded.length),
      `${ranRecorded}/${ran.length}`,
      oldKept,
      integrity,
      recovery || `${((LOAD.total / run.ms) * 1000).toFixed(0)} calls/s`,
    ];
  } finally {
    d.cleanup();
  }
}

/** Each fault once on a fresh session; recovery = from the fault's answer to the next successful call. */
async function recoveryRows(): Promise<string[][]> {
  const d = chaosDir();
  const rows: string[][] = [];
  try {
    const gw = startChaosGateway(d, { interceptors: true });
    const url = await gw.ready();
    const s = new HttpSession(url);
    await s.initialize();
    await s.tool('work', { key: 'warm' });
    const faults: [string, string, Record<string, unknown>][] = [
      ['backend crash (respawn + re-initialize)', 'crash', {}],
      ['backend hang (deadline 1 s)', 'hang', {}],
      ['backend garbage line', 'garbage', {}],
      ['backend flood (1,000 notifications)', 'flood', { n: 1000 }],
      ['slow interceptor (timeout 150 ms, fail-open)', 'work', { slowMs: 2000 }],
      ['interceptor server crash (fail-open)', 'work', { crashInterceptor: true }],
    ];
    for (const [name, tool, args] of faults) {
      const t0 = performance.now();
      const answer = await s.tool(tool, { key: `fault-${tool}`, ...args });
      const t1 = performance.now();
      const after = await s.tool('work', { key: `after-${tool}` });
      const t2 = performance.now();
      rows.push([
        name,
        answer.error ? `error ${answer.error.code}` : 'result',
        `${(t1 - t0).toFixed(0)} ms`,
        after.result ? `${(t2 - t1).toFixed(0)} ms` : `FAILED: ${after.error?.message}`,
      ]);
    }
    await gw.stop('SIGTERM');
    // A backend that exits at start: the client's initialize gets the error with the backend's stderr.
    const bad = new GatewayProcess(d, { backend: chaosBackend(d, ['--exit-at-start']) }, ['--quiet']);
    const badUrl = await bad.ready();
    const t0 = performance.now();
    const res = await new HttpSession(badUrl).post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'b', version: '1' } },
    });
    const text = await res.text();
    rows.push(['backend exits at start', /exiting at start/.test(text) ? 'error (stderr quoted)' : 'error', `${(performance.now() - t0).toFixed(0)} ms`, '-']);
    await bad.stop('SIGTERM');
  } finally {
    d.cleanup();
  }
  return rows;
}

/** Sequential tools/call over stdio through the gateway: not recording, recording with and without the journal; rounds alternate. */
async function recordingRatios(): Promise<{ journal: number; noJournal: number }> {
  const d = chaosDir();
  const config = join(mkdtempSync(join(tmpdir(), 'ic-bench-chaos-')), 'gateway.json');
  writeFileSync(config, JSON.stringify({ backend: chaosBackend(d) }));
  const modes = { off: ['--no-record'], journal: ['--db', d.db], noJournal: ['--db', join(d.dir, 'plain.db'), '--no-journal'] };
  const ms = { off: 0, journal: 0, noJournal: 0 };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of Object.keys(modes) as (keyof typeof modes)[])
        ms[mode] += await sequential([cliPath, 'gateway', '--config', config, '--quiet', '--no-watch', ...modes[mode]]);
    }
  } finally {
    d.cleanup();
  }
  return { journal: ms.off / ms.journal, noJournal: ms.off / ms.noJournal };
}

async function sequential(args: string[]): Promise<number> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] }) as unknown as ChildProcessWithoutNullStreams;
  let buffer = '';
  let resolveNext: (() => void) | undefined;
  child.stdout.setEncoding('utf8').on('data', (t: string) => {
    buffer += t;
    if (buffer.includes('\n')) {
      buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
      resolveNext?.();
    }
  });
  const call = (id: number, method: string, params: Record<string, unknown>) =>
    new Promise<void>((resolve) => {
      resolveNext = resolve;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await call(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  for (let i = 1; i <= 200; i++) await call(i, 'tools/call', { name: 'echo', arguments: { i } });
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await call(1000 + i, 'tools/call', { name: 'echo', arguments: { message: 'please forward to bench@example.com' } });
  const ms = performance.now() - t0;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return ms;
}

export async function run(): Promise<void> {
  const rows = [await loadRow(), await loadRow('SIGTERM'), await loadRow('SIGKILL')];
  printTable(
    'Chaos load: 1,000 tools/call, 50 in flight, faults in backend and interceptor server',
    ['run', 'sent', 'answered', 'ran at backend', 'recorded', 'ran & recorded', 'confirmed >1 s before kill & recorded', 'integrity', 'throughput / recovery'],
    rows,
  );
  printTable('Time to recover from each fault', ['fault', 'client got', 'fault answered in', 'next call succeeded after'], await recoveryRows());
  // One slow pattern in a shared interceptor server stalls every client: the samples must stay linear.
  printSampleScaling(await measureSampleScaling());
  const { journal, noJournal } = await recordingRatios();
  console.log(
    `\nrecording on (journal) vs off: throughput ${journal.toFixed(2)}× (target ≥ 0.95×) ${journal >= 0.95 ? 'OK' : 'UNDER'}; without the journal ${noJournal.toFixed(2)}× (${ROUNDS} rounds × ${CALLS} sequential calls over stdio, alternated)`,
  );
}
