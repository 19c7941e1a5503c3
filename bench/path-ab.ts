// Two builds' CPU per call on one gateway row, for a change of a few percent ([path-speed]). bench/path.ts
// keeps each variant's processes for the whole run, and on this machine a process keeps its own speed for its
// life: the same server behind two rows of one run cost 24 % apart per call, so its baseline rows cannot show a
// 5 % change however many rounds it makes. Here every run starts a fresh process tree (gateway, its servers,
// server-everything behind it), warms it, times BENCH_AB_CALLS sequential `tools/call echo` and stops it; the
// two builds alternate A B B A, BENCH_AB_RUNS times each, and run k of one is paired with run k of the other.
// By default the bench and every process it starts share one CPU (the last; `taskset`): spread over two, where
// four processes land moves the same build's CPU per call by up to ±25 % from run to run, on one by ±5 %. Each
// run's CPU is also taken over its backend's (same server, same work): the machine's speed drifts for every
// process at once (the backend's own CPU per call moved between 0.16 and 0.28 ms over twelve runs of one row
// in half an hour here), and that ratio cancels it.
//
// `BENCH_AB_BASELINE=<another checkout, built> npm run bench -- path-ab`; BENCH_AB_ROW (samples, default,
// capture-off, no-recording, samples-no-recording, samples-in-process; default samples), BENCH_AB_RUNS (6),
// BENCH_AB_CALLS (3,000), BENCH_AB_WARMUP (3,000), BENCH_AB_CLIENT (line or sdk; line), BENCH_AB_CPU (a CPU
// number, or `none` to leave the processes where the scheduler puts them).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { clientKindFromEnv } from './bench-client';
import { cli } from './gateway';
import { GatewaySession } from './gateway-session';
import { config, cpuTotal, gatewayArgs, isBackend, treeCpuMs } from './path-tree';
import { fmtRatio, median, summarizeRatios } from './ratio-stats';
import { fmtMs, percentile, printTable } from './stats';

const ROWS = {
  samples: { samples: true, capture: true, record: true },
  default: { samples: false, capture: true, record: true },
  'capture-off': { samples: false, capture: false, record: true },
  'no-recording': { samples: false, capture: true, record: false },
  'samples-no-recording': { samples: true, capture: true, record: false },
  'samples-in-process': { samples: 'bundled', capture: true, record: true },
} as const;
type Row = keyof typeof ROWS;

interface Run {
  p50: number;
  /** CPU per call, ms: the tree's total, the gateway's main thread, and the backend's (the drift check). */
  cpu: number;
  main: number;
  backend: number;
}

function settings(baseline: string) {
  const baselineCli = join(baseline, 'out/cli/index.js');
  if (!existsSync(baselineCli)) throw new Error(`${baselineCli} does not exist: run \`npm run build:cli\` in ${baseline} first`);
  const row = (process.env.BENCH_AB_ROW ?? 'samples') as Row;
  if (!(row in ROWS)) throw new Error(`BENCH_AB_ROW must be one of ${Object.keys(ROWS).join(', ')}, not '${row}'`);
  const count = (name: string, fallback: number) => {
    const value = Number(process.env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number above 0, not '${process.env[name]}'`);
    return value;
  };
  const cpu = process.env.BENCH_AB_CPU ?? String(cpus().length - 1);
  if (cpu !== 'none' && !/^\d+$/.test(cpu)) throw new Error(`BENCH_AB_CPU must be a CPU number or 'none', not '${cpu}'`);
  return {
    baselineCli,
    row,
    runs: count('BENCH_AB_RUNS', 6),
    calls: count('BENCH_AB_CALLS', 3000),
    warmup: count('BENCH_AB_WARMUP', 3000),
    client: clientKindFromEnv(process.env.BENCH_AB_CLIENT ?? 'line'),
    cpu,
  };
}

type Settings = ReturnType<typeof settings>;

/** Every thread of this process, and so every process it starts from now on, on these CPUs (a taskset list). */
function pinTo(cpuList: string): void {
  try {
    execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpuList, String(process.pid)], { stdio: 'ignore' });
  } catch (err) {
    throw new Error(`could not pin the bench to CPU ${cpuList} with taskset (util-linux; BENCH_AB_CPU=none runs unpinned): ${(err as Error).message}`);
  }
}

/** One fresh tree of `cliPath`'s gateway: started, warmed, timed, stopped. */
async function oneRun(name: string, cliPath: string, row: Row, s: Settings): Promise<Run> {
  const shape = ROWS[row];
  const args = gatewayArgs(config({ samples: shape.samples, capture: shape.capture }, cliPath), shape.record, cliPath);
  const session = await GatewaySession.start(name, args, s.warmup, s.client);
  try {
    const before = treeCpuMs(session.pid, isBackend);
    const { samples } = await session.calls(s.calls);
    const after = treeCpuMs(session.pid, isBackend);
    return {
      p50: percentile(samples, 50),
      cpu: (cpuTotal(after) - cpuTotal(before)) / s.calls,
      main: (after.main - before.main) / s.calls,
      backend: (after.left - before.left) / s.calls,
    };
  } finally {
    await session.stop();
  }
}

export async function run(): Promise<void> {
  const baseline = process.env.BENCH_AB_BASELINE;
  if (!baseline) {
    // Part of `npm run bench` (every bench) too, where there is nothing to compare with.
    console.log('skipped: set BENCH_AB_BASELINE=<another checkout, built with `npm run build:cli`> to compare this build with it');
    return;
  }
  const s = settings(baseline);
  const load = loadavg()[0]!;
  if (s.cpu === 'none') await compare(s, load);
  else {
    pinTo(s.cpu);
    try {
      await compare(s, load);
    } finally {
      pinTo(`0-${cpus().length - 1}`); // the benches after this one run where they would have
    }
  }
}

async function compare(s: Settings, load: number): Promise<void> {
  console.log(
    `row "${s.row}": this checkout against ${s.baselineCli}, ${s.runs} fresh process trees each (A B B A), ${s.calls} calls after ${s.warmup} ` +
      `warm-up, ${s.client} client, ${s.cpu === 'none' ? 'unpinned' : `all on CPU ${s.cpu}`} (load average at start ${load.toFixed(2)})`,
  );
  if (load >= 1) console.log('the load average is 1 or more: these figures are not figures');
  const mine: Run[] = [];
  const theirs: Run[] = [];
  for (let k = 0; k < s.runs; k++) {
    // A B, then B A: a drift over the run falls on both builds alike.
    const order = k % 2 === 0 ? (['this', 'baseline'] as const) : (['baseline', 'this'] as const);
    for (const which of order) {
      const result = await oneRun(`${which} #${k + 1}`, which === 'this' ? cli : s.baselineCli, s.row, s);
      (which === 'this' ? mine : theirs).push(result);
      console.log(
        `  ${which} #${k + 1}: p50 ${fmtMs(result.p50)}, CPU ${fmtMs(result.cpu)} per call (main thread ${fmtMs(result.main)}, backend ${fmtMs(result.backend)})`,
      );
    }
  }
  const med = (runs: Run[], of: (r: Run) => number) => median(runs.map(of));
  printTable(
    `Row "${s.row}", medians over ${s.runs} runs each`,
    ['build', 'p50', 'CPU/call', 'main thread', 'backend', 'CPU over the backend’s'],
    (
      [
        ['this checkout', mine],
        ['baseline', theirs],
      ] as const
    ).map(([label, r]) => [
      label,
      fmtMs(med(r, (x) => x.p50)),
      fmtMs(med(r, (x) => x.cpu)),
      fmtMs(med(r, (x) => x.main)),
      fmtMs(med(r, (x) => x.backend)),
      med(r, (x) => x.cpu / x.backend).toFixed(2),
    ]),
  );
  const paired = (label: string, of: (r: Run) => number) => console.log(`  ${label}: ${fmtRatio(summarizeRatios(mine.map((r, k) => of(r) / of(theirs[k]!))))}`);
  console.log('\nThis checkout / baseline, run k with run k (median, spread and 95 % interval; an interval holding 1 found no difference):');
  paired('CPU per call', (r) => r.cpu);
  paired('main thread CPU per call', (r) => r.main);
  paired("CPU per call over the backend's", (r) => r.cpu / r.backend);
  paired('p50', (r) => r.p50);
}
