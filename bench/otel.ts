// OpenTelemetry export cost (issue #18): the headless gateway (the three C#-sample interceptors, recording to
// SQLite, the production setup) with OTLP export on vs off, target: throughput with export on ≥ 0.95× off.
//
// On a shared 2-core machine one long run per variant is noise (an off-vs-off run gave 0.98× and 0.77×), so:
// - three gateways run side by side for the whole bench: "off A" (the reference), "off B" (identical to off A:
//   the A/A control, whose ratio to off A is 1.00× in truth, so its spread shows what the machine's noise alone
//   does) and "on" (export to a local OTLP/HTTP sink in its own process, bench/otlp-sink.mjs, the SDK's default
//   batching);
// - the run is a series of blocks; a block gives each gateway one short round of sequential tools/call in an
//   order that rotates through all permutations (on, off A, off B / off B, on, off A / …), so the rounds of a
//   block are seconds apart and see the same load, and no variant is always first or last;
// - each block yields a ratio (variant's calls/s ÷ off A's calls/s in that block); the result is the median of
//   the blocks' ratios with its interquartile range and a 95% bootstrap interval of the median. The target is
//   shown when that interval lies at or above 0.95×, and only when the A/A control's interval contains 1.00×
//   (otherwise the run itself is biased and proves nothing);
// - beside it, calls per gateway CPU-second (the gateway process, every thread, the export thread included, from
//   /proc), whose ratio says how much more CPU a call costs with export on, wherever and whenever it is spent.
//   On this VM a thread's CPU time itself grows with the load (caches, shared cores): an idle gateway is cheaper
//   per call than the same gateway during a burst. So the CPU figure is measured a second time in lockstep
//   blocks: the gateways take turns call by call (order rotating), so every one of them sees the same load at
//   the same moments, and each block ends when all are idle (deferred export counted). Lockstep is for CPU only:
//   its throughput would not be honest, as the on gateway's export thread would slow the others' calls too.
// After each round the gateway is left until idle (its deferred export batches done) before the next round, so
// one gateway's leftover work never lands in another's round. Throughput therefore counts the export work done
// during the round, not what was still queued when its last call returned (up to ~1.5 s of it: the gateway's
// 500 ms drain plus the span processor's 1 s delay), so rounds should last several seconds; the CPU figure
// counts all of it.
//
// Run: `npm run bench -- otel` (builds the CLI first) or `node --import tsx bench/index.ts otel`.
// BENCH_OTEL_BLOCKS (default 12), BENCH_OTEL_ROUND_CALLS (default 600), BENCH_OTEL_WARMUP (default 500),
// BENCH_OTEL_LOCKSTEP_BLOCKS (default 8), BENCH_OTEL_LOCKSTEP_CALLS (calls per gateway per block, default 300).
// BENCH_OTEL_BASELINE=path/to/an/older/out/cli/index.js adds that build with export on as a fourth gateway, so a
// change to the export path is compared before/after in the same run.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gatewayConfig } from './gateway';
import { GatewaySession, type RoundResult } from './gateway-session';
import { balancedOrders, fmtRatio, median, summarizeRatios, type RatioSummary } from './ratio-stats';
import { fmtMs, percentile, printTable } from './stats';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'out/cli/index.js');
const BLOCKS = Number(process.env.BENCH_OTEL_BLOCKS ?? 12);
const ROUND_CALLS = Number(process.env.BENCH_OTEL_ROUND_CALLS ?? 600);
const WARMUP = Number(process.env.BENCH_OTEL_WARMUP ?? 500);
const LOCKSTEP_BLOCKS = Number(process.env.BENCH_OTEL_LOCKSTEP_BLOCKS ?? 8);
const LOCKSTEP_CALLS = Number(process.env.BENCH_OTEL_LOCKSTEP_CALLS ?? 300);
const BASELINE = process.env.BENCH_OTEL_BASELINE;
const TARGET = 0.95;

async function startSink(): Promise<{ url: string; stop: () => Promise<string> }> {
  const child = spawn(process.execPath, [join(root, 'bench/otlp-sink.mjs')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let report = '';
  child.stderr.setEncoding('utf8').on('data', (t: string) => (report += t));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').once('data', (t: string) => resolve(t.trim()));
    child.once('exit', () => reject(new Error('the OTLP sink exited before listening')));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      return report.trim();
    },
  };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const tput = (r: RoundResult) => (r.calls / r.wallMs) * 1000;
const callsPerCpuSecond = (r: RoundResult) => (r.calls / r.cpuMs) * 1000;

export async function run(): Promise<void> {
  const sink = await startSink();
  const config = gatewayConfig(true);
  const db = () => join(mkdtempSync(join(tmpdir(), 'ic-bench-otel-')), 'history.db');
  const gateway = (extra: string[], build = cli) => [build, 'gateway', '--config', config, '--quiet', '--db', db(), ...extra];
  const specs: { name: string; args: string[] }[] = [
    { name: 'off A (reference)', args: gateway([]) },
    { name: 'off B (A/A control)', args: gateway([]) },
    { name: 'on', args: gateway(['--otlp-endpoint', sink.url]) },
  ];
  if (BASELINE) specs.push({ name: 'baseline build, on', args: gateway(['--otlp-endpoint', sink.url], BASELINE) });

  console.log(
    `gateway: 3 C# sample interceptors, recording to SQLite; sequential tools/call (echo) over stdio; OTLP/HTTP to ${sink.url}\n` +
      `${specs.length} gateways side by side, ${BLOCKS} blocks × 1 round of ${ROUND_CALLS} calls each, order rotating; ${WARMUP} warm-up calls each\n` +
      `load average (1/5/15 min) at start: ${load()}`,
  );
  const sessions: GatewaySession[] = [];
  for (const s of specs) sessions.push(await GatewaySession.start(s.name, s.args, WARMUP));
  const results: RoundResult[][] = specs.map(() => []);
  const orders = balancedOrders(specs.length);
  const loads: number[] = [];
  for (let b = 0; b < BLOCKS; b++) {
    for (const i of orders[b % orders.length]!) results[i]!.push(await sessions[i]!.round(ROUND_CALLS, 1500));
    loads.push(loadavg()[0]!);
    process.stdout.write(`block ${b + 1}/${BLOCKS} (load ${loadavg()[0]!.toFixed(2)})\r`);
  }
  const lockstep = await lockstepCpu(sessions, orders);
  for (const s of sessions) await s.stop();
  console.log(`\n${await sink.stop()}`);
  console.log(
    `load average (1/5/15 min) at end: ${load()}; 1-min load over the blocks: median ${median(loads).toFixed(2)}, ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`,
  );

  const perBlock = (f: (r: RoundResult) => number, i: number) => results[i]!.map((r, b) => f(r) / f(results[0]![b]!));
  const tputRatios = specs.map((_, i) => summarizeRatios(perBlock(tput, i)));
  const cpuRatios = specs.map((_, i) => summarizeRatios(perBlock(callsPerCpuSecond, i)));
  const sum = (i: number, f: (r: RoundResult) => number) => results[i]!.reduce((a, r) => a + f(r), 0);
  printTable(
    'OpenTelemetry export: per variant over all blocks',
    ['variant', 'p50', 'p99', 'calls/s', 'calls/s vs off A (median of blocks)', 'gateway CPU/call', 'main thread', 'other threads', 'calls per CPU-s vs off A'],
    specs.map((s, i) => {
      const samples = results[i]!.flatMap((r) => r.samples);
      const calls = sum(i, (r) => r.calls);
      return [
        s.name,
        fmtMs(percentile(samples, 50)),
        fmtMs(percentile(samples, 99)),
        ((calls / sum(i, (r) => r.wallMs)) * 1000).toFixed(0),
        `${tputRatios[i]!.median.toFixed(3)}×`,
        fmtMs(sum(i, (r) => r.cpuMs) / calls),
        fmtMs(sum(i, (r) => r.mainCpuMs) / calls),
        fmtMs(sum(i, (r) => r.cpuMs - r.mainCpuMs) / calls),
        `${cpuRatios[i]!.median.toFixed(3)}×`,
      ];
    }),
  );
  console.log(
    '\nWhat the figures mean:\n' +
      "- throughput ratio: per block, the variant's calls/s ÷ off A's calls/s in the same block; the median over the blocks, the\n" +
      "  interquartile range (half of the blocks within) and a 95% bootstrap interval of that median. A round's calls/s leaves out\n" +
      '  the export work still queued when its last call returned (up to ~1.5 s of it); the CPU figures count it.\n' +
      '- A/A control: off B is the same build and config as off A; its ratio is 1.00× in truth, its spread is the noise of this run.\n' +
      '- calls per gateway CPU-second: calls ÷ CPU time of the gateway process (all threads, export thread included, deferred\n' +
      '  work after the round included), per block vs off A. CPU time per call itself grows with the load on a shared VM, so it\n' +
      '  is measured again in lockstep (the gateways take turns call by call, all under the same load; each at a third of its\n' +
      '  own rate, so fixed per-second costs weigh more per call than in a standalone run).',
  );
  for (let i = 1; i < specs.length; i++) {
    console.log(`\n${specs[i]!.name} vs off A:\n  throughput            ${fmtRatio(tputRatios[i]!)}\n  calls per CPU-second  ${fmtRatio(cpuRatios[i]!)}`);
  }
  console.log(`\nLockstep (CPU only): ${LOCKSTEP_BLOCKS} blocks × ${LOCKSTEP_CALLS} calls per gateway, turns rotating call by call`);
  for (let i = 1; i < specs.length; i++) {
    const ratios = lockstep.map((block) => block[0]! / block[i]!); // CPU per call of off A ÷ this = calls per CPU-s vs off A
    console.log(`  ${specs[i]!.name} vs off A: calls per CPU-second ${fmtRatio(summarizeRatios(ratios))}`);
  }
  const cpuMs = (i: number) => median(lockstep.map((block) => block[i]!));
  console.log(`  gateway CPU per call (median of blocks): ${specs.map((s, i) => `${s.name} ${fmtMs(cpuMs(i))}`).join(', ')}`);
  const control = tputRatios[1]!;
  const on = tputRatios[2]!;
  console.log(`\n${verdict(on, control)}`);
}

/** Per lockstep block, each gateway's CPU per call (ms), deferred work included. */
async function lockstepCpu(sessions: GatewaySession[], orders: number[][]): Promise<number[][]> {
  const blocks: number[][] = [];
  for (let b = 0; b < LOCKSTEP_BLOCKS; b++) {
    const before = sessions.map((s) => s.cpuNs().all);
    for (let c = 0; c < LOCKSTEP_CALLS; c++) for (const i of orders[c % orders.length]!) await sessions[i]!.call();
    await Promise.all(sessions.map((s) => s.settle()));
    blocks.push(sessions.map((s, i) => (s.cpuNs().all - before[i]!) / 1e6 / LOCKSTEP_CALLS));
    process.stdout.write(`lockstep block ${b + 1}/${LOCKSTEP_BLOCKS} (load ${loadavg()[0]!.toFixed(2)})\r`);
  }
  return blocks;
}

function verdict(on: RatioSummary, control: RatioSummary): string {
  const head = `OTLP export on vs off: throughput ${on.median.toFixed(3)}× (95% CI ${on.ciLow.toFixed(3)}–${on.ciHigh.toFixed(3)}; target ≥ ${TARGET}×)`;
  if (control.ciLow > 1 || control.ciHigh < 1)
    return `${head}: INCONCLUSIVE, the A/A control's interval excludes 1.00× (${control.ciLow.toFixed(3)}–${control.ciHigh.toFixed(3)}): this run is biased`;
  if (on.ciLow >= TARGET) return `${head}: SHOWN (the whole interval is at or above the target)`;
  if (on.ciHigh < TARGET) return `${head}: UNDER (the whole interval is below the target)`;
  return `${head}: NOT SHOWN (the interval straddles the target; more blocks or a quieter machine narrow it)`;
}
