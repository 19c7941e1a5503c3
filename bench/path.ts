// The path's cost ([path-speed]): sequential `tools/call echo` over stdio, server-everything over stdio
// behind each variant, every ratio against a bare JSON-line relay in the same position (the floor for any
// proxy), measured side by side in one run with rounds interleaved. A second relay (A/A) shows the noise:
// a row that differs from the relay by less than the A/A row does not differ at all. CPU per call is the
// whole process tree's (gateway, its writer thread and its interceptor servers; not the backend's, which
// every variant has), read from each thread's /proc schedstat (path-tree.ts). It is split into the measured
// process's main thread, its other threads (the history writer, V8's helpers) and its child processes
// (interceptor servers; the relay's echo process). A change of a few percent in CPU: bench/path-ab.ts.
//
// Steady state, not start-up: every variant's processes are started once and warmed with BENCH_PATH_WARMUP
// calls (default 6,000) before the first round (a GatewaySession, which then waits until the process is quiet),
// then measured round after round while they live, as a gateway lives for hours. Here the first thousands of calls of a new process are the slowest by far, for every
// variant and for the backend behind it (JIT tiers, heaps and caches growing; a page touched for the first
// time costs ~11 µs on this VM): with 300 warm-up calls a fresh process per round measured that transient
// (the relay 0.27 ms, server-everything ~0.3 ms of CPU per call; after 6,000 calls 0.13 ms and ~0.07 ms).
// Before each round's block a variant makes ROUND_WARMUP calls unmeasured: the first after seconds of idling
// find cold caches.
// The client is the official SDK's (its Client over stdio, calling callTool), as [path-speed] defines the table;
// BENCH_PATH_CLIENT=line measures with a bare JSON-line client instead, the stricter view (bench-client.ts).
// Run on a quiet machine (load average < 1): `npm run bench -- path`; BENCH_PATH_CALLS, BENCH_PATH_ROUNDS,
// BENCH_PATH_WARMUP, BENCH_PATH_CLIENT.
// BENCH_PATH_BASELINE=<another checkout, built> adds that checkout's gateway rows to the same run (before/after);
// BENCH_PATH_ONLY=<regex> keeps only the matching variants (and the relay rows).
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { clientKindFromEnv } from './bench-client';
import { everything, relay } from './gateway';
import { GatewaySession } from './gateway-session';
import { config, cpuTotal, gatewayArgs, isBackend, treeCpuMs, type CpuSplit } from './path-tree';
import { fmtRatio, summarizeRatios } from './ratio-stats';
import { fmtMs, percentile, printTable } from './stats';

const CALLS = Number(process.env.BENCH_PATH_CALLS ?? 1000);
const ROUNDS = Number(process.env.BENCH_PATH_ROUNDS ?? 4);
const WARMUP = Number(process.env.BENCH_PATH_WARMUP ?? 6000);
const ROUND_WARMUP = 200;
const CLIENT = clientKindFromEnv(process.env.BENCH_PATH_CLIENT);

interface Variant {
  name: string;
  args: string[];
  samples: number[];
  totalMs: number;
  calls: number;
  /** CPU of the measured calls: the process's main thread, its other threads (writer, V8's helpers), its child processes. */
  cpuMs: CpuSplit;
  /** The targets of [path-speed]: p50 at most, calls/s at least, as ratios to the relay. */
  target?: { p50: number; tput: number };
  /** p50 of each round, in round order: paired with another variant's round by round. */
  roundP50: number[];
  /** CPU per call of each round (ms), in round order: paired like roundP50. */
  roundCpu: number[];
  /** A baseline row: the variant of this checkout it is compared with, round by round. */
  pairedWith?: string;
  /** The variant's process while the run lasts (started and warmed before the first round). */
  live?: GatewaySession;
}

/** One round's block: ROUND_WARMUP calls unmeasured, then CALLS timed, with the process tree's CPU read around them. */
async function measure(variant: Variant): Promise<void> {
  const session = variant.live!;
  for (let i = 0; i < ROUND_WARMUP; i++) await session.call();
  const cpu0 = treeCpuMs(session.pid, isBackend);
  const { samples, totalMs } = await session.calls(CALLS);
  const cpu1 = treeCpuMs(session.pid, isBackend);
  variant.cpuMs.main += cpu1.main - cpu0.main;
  variant.cpuMs.threads += cpu1.threads - cpu0.threads;
  variant.cpuMs.children += cpu1.children - cpu0.children;
  variant.samples.push(...samples);
  variant.totalMs += totalMs;
  variant.calls += CALLS;
  variant.roundP50.push(percentile(samples, 50));
  variant.roundCpu.push((cpuTotal(cpu1) - cpuTotal(cpu0)) / CALLS);
}

/** CPU per call of the root's main thread, its other threads and its child processes, µs. */
function fmtSplit(split: CpuSplit, calls: number): string {
  const us = (ms: number) => Math.round((ms / calls) * 1000);
  return `${us(split.main)} / ${us(split.threads)} / ${us(split.children)} µs`;
}

const NO_RECORDING = 'gateway, no recording';
const DEFAULT = 'gateway, default (recording + capture)';
const SAMPLES_STDIO = 'gateway + bundled samples over stdio (serve-samples)';
const RELAY_ROUND_TRIPS = 'relay + 4 round trips to an echo process (floor of the samples row)';
const SAMPLES_IN_PROCESS = 'gateway + bundled samples in process (transport bundled)';

/**
 * Ratios of p50 taken round by round (each round's two runs are seconds apart, so the machine's drift over the
 * run cancels out), summarised by their median and a bootstrap interval: an A/B whose interval holds 1 found
 * no difference. Few rounds give wide intervals; use BENCH_PATH_ROUNDS=8 or more for an A/B.
 */
function printPairedRatios(variants: Variant[]): void {
  const byName = new Map(variants.map((v) => [v.name, v]));
  const pairs: [string, Variant, Variant][] = [['relay again (A/A) / relay', variants[1]!, variants[0]!]];
  for (const v of variants) {
    const current = v.pairedWith ? byName.get(v.pairedWith) : undefined;
    if (current) pairs.push([`${current.name}: this checkout / baseline`, current, v]);
  }
  // CPU per call too: it moves less with where the scheduler puts each wake-up than p50 does, so a change in the
  // work a call costs shows there when p50 cannot tell it from the noise (the A/A row shows how far each moves).
  const print = (what: string, of: (v: Variant) => number[]) => {
    console.log(`\nPaired by round (${what} ratio per round; median, spread and 95 % interval over the rounds):`);
    for (const [label, a, b] of pairs) {
      const mine = of(a);
      const theirs = of(b);
      console.log(`  ${label}: ${fmtRatio(summarizeRatios(mine.map((x, i) => x / theirs[i]!)))}`);
    }
  };
  print('p50', (v) => v.roundP50);
  print('CPU per call', (v) => v.roundCpu);
}

export async function run(): Promise<void> {
  const load = loadavg()[0]!;
  const variant = (name: string, args: string[], target?: Variant['target'], pairedWith?: string): Variant => ({
    name,
    args,
    samples: [],
    totalMs: 0,
    calls: 0,
    cpuMs: { main: 0, threads: 0, children: 0 },
    target,
    roundP50: [],
    roundCpu: [],
    pairedWith,
  });
  const direct = [everything, 'stdio'];
  const variants: Variant[] = [
    variant('relay', [relay, process.execPath, ...direct]),
    variant('relay again (A/A)', [relay, process.execPath, ...direct]),
    // Not a gateway: the relay plus the samples chain's sequential round trips over stdio (3 before the backend, 1
    // after) to a process that only echoes, i.e. the floor of that row's shape on this machine.
    variant(RELAY_ROUND_TRIPS, [relay, '--round-trips', '3,1', process.execPath, ...direct]),
    variant(NO_RECORDING, gatewayArgs(config({ samples: false, capture: true }), false), { p50: 1.1, tput: 0.9 }),
    variant('gateway, recording, capture off', gatewayArgs(config({ samples: false, capture: false }), true), { p50: 1.1, tput: 0.9 }),
    variant(DEFAULT, gatewayArgs(config({ samples: false, capture: true }), true), { p50: 1.1, tput: 0.9 }),
    variant(SAMPLES_STDIO, gatewayArgs(config({ samples: true, capture: true }), true), { p50: 3, tput: 0 }),
    // Not a default: the same row without message capture, so that every run shows capture's share of it (the
    // interceptor side's messages, 28 a call, are most of the writer's work there).
    variant(`${SAMPLES_STDIO}, capture off`, gatewayArgs(config({ samples: true, capture: false }), true)),
    variant(SAMPLES_IN_PROCESS, gatewayArgs(config({ samples: 'bundled', capture: true }), true), { p50: 3, tput: 0 }),
  ];
  const baseline = process.env.BENCH_PATH_BASELINE;
  if (baseline) {
    const baseCli = join(baseline, 'out/cli/index.js');
    variants.push(
      variant('baseline: gateway, no recording', gatewayArgs(config({ samples: false, capture: true }, baseCli), false, baseCli), undefined, NO_RECORDING),
      variant('baseline: gateway, default', gatewayArgs(config({ samples: false, capture: true }, baseCli), true, baseCli), undefined, DEFAULT),
      variant('baseline: gateway + bundled samples', gatewayArgs(config({ samples: true, capture: true }, baseCli), true, baseCli), undefined, SAMPLES_STDIO),
      // Checkouts from before `"transport": "bundled"` refuse this config: leave BENCH_PATH_BASELINE_BUNDLED unset for them.
      ...(process.env.BENCH_PATH_BASELINE_BUNDLED
        ? [
            variant(
              'baseline: gateway + samples in process',
              gatewayArgs(config({ samples: 'bundled', capture: true }, baseCli), true, baseCli),
              undefined,
              SAMPLES_IN_PROCESS,
            ),
          ]
        : []),
    );
  }
  // BENCH_PATH_ONLY=<regex>: only the variants whose names match, beside the relay and the A/A row (quick A/B while working).
  const only = process.env.BENCH_PATH_ONLY ? new RegExp(process.env.BENCH_PATH_ONLY) : undefined;
  if (only) variants.splice(0, variants.length, ...variants.filter((v, i) => i < 2 || only.test(v.name)));
  console.log(
    `sequential tools/call (echo) over stdio from ${CLIENT === 'sdk' ? "the SDK's Client" : 'a bare JSON-line client'}, ` +
      `server-everything behind each: ${ROUNDS} rounds × ${CALLS} calls, rounds interleaved, ` +
      `each variant's processes warmed with ${WARMUP} calls first (load average at start ${load.toFixed(2)})`,
  );
  if (load >= 1) console.log('the load average is 1 or more: these figures are not figures (see README "Path cost")');
  try {
    for (const v of variants) v.live = await GatewaySession.start(v.name, v.args, WARMUP, CLIENT);
    for (let round = 0; round < ROUNDS; round++) for (const v of round % 2 ? [...variants].reverse() : variants) await measure(v);
  } finally {
    await Promise.all(variants.map((v) => v.live?.stop()));
  }
  const base = variants[0]!;
  const baseP50 = percentile(base.samples, 50);
  const baseTput = (base.calls / base.totalMs) * 1000;
  printTable(
    'Path cost vs a bare JSON-line relay',
    ['variant', 'p50', 'p99', 'calls/s', 'CPU/call', 'main / threads / servers', 'p50 vs relay', 'calls/s vs relay', 'target'],
    variants.map((v) => {
      const p50 = percentile(v.samples, 50);
      const tput = (v.calls / v.totalMs) * 1000;
      const p50Ratio = p50 / baseP50;
      const tputRatio = tput / baseTput;
      const verdict = v.target ? (p50Ratio <= v.target.p50 && tputRatio >= v.target.tput ? 'met' : 'NOT met') : '';
      const target = v.target ? `≤ ${v.target.p50}× p50${v.target.tput ? `, ≥ ${v.target.tput}× calls/s` : ''}: ${verdict}` : '';
      return [
        v.name,
        fmtMs(p50),
        fmtMs(percentile(v.samples, 99)),
        tput.toFixed(0),
        fmtMs(cpuTotal(v.cpuMs) / v.calls),
        fmtSplit(v.cpuMs, v.calls),
        `${p50Ratio.toFixed(2)}×`,
        `${tputRatio.toFixed(2)}×`,
        target,
      ];
    }),
  );
  printPairedRatios(variants);
  const aa = variants[1]!;
  const aaP50 = percentile(aa.samples, 50) / baseP50;
  console.log(
    `A/A (relay vs relay): p50 ${aaP50.toFixed(2)}× ${Math.abs(aaP50 - 1) <= 0.05 ? '(within 5 %: the run is usable)' : '(more than 5 % apart: too noisy, run again on a quieter machine)'}`,
  );
}
