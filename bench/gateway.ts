// Gateway overhead (product.md §5): sequential tools/call p50 latency and throughput over stdio against
// server-everything, side by side in one run: direct; through a minimal JSON-line relay (the floor for any
// proxy hop); through the gateway with an empty chain; through the gateway with the three C#-sample
// interceptors (pii-validator, email-redactor, request-logger). Rounds alternate the variants so that
// machine drift hits all of them alike. Targets: empty chain ≤ 1.3× relay p50, ≥ 0.8× relay throughput.
// Also: the gateway (empty chain) recording into SQLite vs not recording (target ≤ 5% throughput loss).
// Run: `npm run bench -- gateway` (builds the CLI first) or `node --import tsx bench/index.ts gateway`.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, timeEchoCalls } from './bench-client';
import { fmtMs, percentile, printTable } from './stats';

const root = fileURLToPath(new URL('..', import.meta.url));
export const cli = join(root, 'out/cli/index.js');
export const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const relay = join(root, 'bench/relay.mjs');

const CALLS = Number(process.env.BENCH_GATEWAY_CALLS ?? 1500);
const ROUNDS = Number(process.env.BENCH_GATEWAY_ROUNDS ?? 3);
const WARMUP = 300;

export function gatewayConfig(withSamples: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'ic-bench-'));
  const off = ['secretless-redactor', 'cross-boundary-guard', 'tool-allowlist', 'prompt-injection-heuristic'];
  const config = {
    backend: { transport: 'stdio', name: 'everything', command: process.execPath, arguments: [everything, 'stdio'] },
    staticInterceptors: withSamples ? [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cli, 'serve-samples'] }] : [],
    overrides: withSamples ? Object.fromEntries(off.map((n) => [`samples/${n}`, { enabled: false }])) : {},
  };
  const file = join(dir, 'gateway.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

export interface Variant {
  name: string;
  args: string[];
  samples: number[];
  totalMs: number;
  calls: number;
  /** CPU time (user + system, all threads) the measured process spent during the measured calls, ms. */
  cpuMs?: number;
  /** The part of cpuMs spent on the process's main thread (its event loop), ms. */
  mainCpuMs?: number;
}

/** CPU time of a process (all threads) so far, ms (Linux /proc; clock ticks at the usual 100 Hz). */
function processCpuMs(pid: number | undefined): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** CPU time of a process's main thread (its tid is its pid) so far, ms (NaN once it is gone). */
function mainThreadCpuMs(pid: number | undefined): number {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuMs(file: string): number {
  try {
    const stat = readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * Starts `args` (an MCP server over stdio, or a proxy in front of one), initializes, makes `warmup` calls,
 * then times `calls` sequential `tools/call echo`; `cpu(pid)` (one or more CPU counters, ms) is read before
 * and after the timed calls.
 */
export async function timeCalls(
  args: string[],
  calls: number,
  warmup: number,
  cpu: (pid: number) => number[],
): Promise<{ samples: number[]; totalMs: number; cpuMs: number[] }> {
  const client = await connect('line', args);
  for (let i = 0; i < warmup; i++) await client.callEcho();
  const cpu0 = cpu(client.pid);
  const { samples, totalMs } = await timeEchoCalls(client, calls);
  const cpuMs = cpu(client.pid).map((v, i) => v - cpu0[i]!);
  await client.stop();
  return { samples, totalMs, cpuMs };
}

export async function measure(variant: Variant): Promise<void> {
  const timed = await timeCalls(variant.args, CALLS, WARMUP, (pid) => [processCpuMs(pid), mainThreadCpuMs(pid)]);
  variant.samples.push(...timed.samples);
  variant.totalMs += timed.totalMs;
  variant.calls += CALLS;
  variant.cpuMs = (variant.cpuMs ?? 0) + timed.cpuMs[0]!;
  variant.mainCpuMs = (variant.mainCpuMs ?? 0) + timed.cpuMs[1]!;
}

export async function run(): Promise<void> {
  const direct = [everything, 'stdio'];
  const variants: Variant[] = [
    { name: 'direct', args: direct, samples: [], totalMs: 0, calls: 0 },
    { name: 'relay (parse + re-serialise)', args: [relay, process.execPath, ...direct], samples: [], totalMs: 0, calls: 0 },
    { name: 'gateway, empty chain', args: [cli, 'gateway', '--config', gatewayConfig(false), '--no-record', '--quiet'], samples: [], totalMs: 0, calls: 0 },
    {
      name: 'gateway, 3 C# sample interceptors',
      args: [cli, 'gateway', '--config', gatewayConfig(true), '--no-record', '--quiet'],
      samples: [],
      totalMs: 0,
      calls: 0,
    },
    {
      name: 'gateway, empty chain, recording to SQLite',
      args: [cli, 'gateway', '--config', gatewayConfig(false), '--db', join(mkdtempSync(join(tmpdir(), 'ic-bench-db-')), 'history.db'), '--quiet'],
      samples: [],
      totalMs: 0,
      calls: 0,
    },
  ];
  console.log(`sequential tools/call (echo) over stdio: ${ROUNDS} rounds × ${CALLS} calls per variant (after ${WARMUP} warm-up calls)`);
  for (let round = 0; round < ROUNDS; round++) for (const v of variants) await measure(v);
  const relayRow = variants[1]!;
  const relayP50 = percentile(relayRow.samples, 50);
  const relayTput = (relayRow.calls / relayRow.totalMs) * 1000;
  printTable(
    'Gateway overhead',
    ['variant', 'p50', 'p99', 'calls/s', 'p50 vs relay', 'calls/s vs relay'],
    variants.map((v) => {
      const p50 = percentile(v.samples, 50);
      const tput = (v.calls / v.totalMs) * 1000;
      return [v.name, fmtMs(p50), fmtMs(percentile(v.samples, 99)), tput.toFixed(0), `${(p50 / relayP50).toFixed(2)}×`, `${(tput / relayTput).toFixed(2)}×`];
    }),
  );
  const empty = variants[2]!;
  const emptyP50 = percentile(empty.samples, 50) / relayP50;
  const emptyTput = ((empty.calls / empty.totalMs) * 1000) / relayTput;
  const recording = variants[4]!;
  const recordingTput = ((recording.calls / recording.totalMs) * 1000) / ((empty.calls / empty.totalMs) * 1000);
  console.log(`recording on vs off (empty chain): throughput ${recordingTput.toFixed(2)}× (target ≥ 0.95×) ${recordingTput >= 0.95 ? 'OK' : 'UNDER'}`);
  console.log(
    `\nempty chain vs relay: p50 ${emptyP50.toFixed(2)}× (target ≤ 1.30×) ${emptyP50 <= 1.3 ? 'OK' : 'OVER'}; ` +
      `throughput ${emptyTput.toFixed(2)}× (target ≥ 0.80×) ${emptyTput >= 0.8 ? 'OK' : 'UNDER'}`,
  );
}
