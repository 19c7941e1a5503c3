// OpenTelemetry export cost (issue #18): the headless gateway (the three C#-sample interceptors, recording to
// SQLite, the production setup) with OTLP export off and on, side by side in one run, rounds alternating so
// machine drift hits both alike. Export goes to a local OTLP/HTTP sink in its own process (bench/otlp-sink.mjs)
// with the SDK's default batching. Target: throughput with export on ≥ 0.95× off.
// Run: `npm run bench -- otel` (builds the CLI first) or `node --import tsx bench/index.ts otel`.
// BENCH_OTEL_BASELINE=path/to/an/older/out/cli/index.js adds that build with export on as a third variant, so a
// change to the export path is compared before/after in the same run (same load).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gatewayConfig, measure, type Variant } from './gateway';
import { fmtMs, percentile, printTable } from './stats';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'out/cli/index.js');
const ROUNDS = Number(process.env.BENCH_GATEWAY_ROUNDS ?? 3);
const BASELINE = process.env.BENCH_OTEL_BASELINE;

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

export async function run(): Promise<void> {
  const sink = await startSink();
  const config = gatewayConfig(true);
  const db = () => join(mkdtempSync(join(tmpdir(), 'ic-bench-otel-')), 'history.db');
  const base = [cli, 'gateway', '--config', config, '--quiet'];
  const variants: Variant[] = [
    { name: 'gateway, 3 samples, SQLite, OTLP off', args: [...base, '--db', db()], samples: [], totalMs: 0, calls: 0 },
    { name: 'gateway, 3 samples, SQLite, OTLP on', args: [...base, '--db', db(), '--otlp-endpoint', sink.url], samples: [], totalMs: 0, calls: 0 },
  ];
  if (BASELINE) {
    const args = [BASELINE, 'gateway', '--config', config, '--quiet', '--db', db(), '--otlp-endpoint', sink.url];
    variants.push({ name: 'baseline build, OTLP on', args, samples: [], totalMs: 0, calls: 0 });
  }
  console.log(`sequential tools/call (echo) over stdio, ${ROUNDS} rounds per variant, OTLP/HTTP to ${sink.url}`);
  for (let round = 0; round < ROUNDS; round++) for (const v of variants) await measure(v);
  console.log(await sink.stop());
  const tput = (v: Variant) => (v.calls / v.totalMs) * 1000;
  const cpuPerCall = (v: Variant) => (v.cpuMs ?? NaN) / v.calls;
  const mainPerCall = (v: Variant) => (v.mainCpuMs ?? NaN) / v.calls;
  const [off, on] = variants as [Variant, Variant];
  printTable(
    'OpenTelemetry export',
    ['variant', 'p50', 'p99', 'calls/s', 'calls/s vs off', 'gateway CPU/call', 'main thread', 'other threads', 'CPU/call vs off'],
    variants.map((v) => [
      v.name,
      fmtMs(percentile(v.samples, 50)),
      fmtMs(percentile(v.samples, 99)),
      tput(v).toFixed(0),
      `${(tput(v) / tput(off)).toFixed(2)}×`,
      fmtMs(cpuPerCall(v)),
      fmtMs(mainPerCall(v)),
      fmtMs(cpuPerCall(v) - mainPerCall(v)),
      `+${fmtMs(cpuPerCall(v) - cpuPerCall(off))}`,
    ]),
  );
  // CPU per call is steadier than throughput on a loaded machine: it says what export costs, wherever it runs
  // (main thread: the gateway's event loop; other threads: the export thread, the store writer, libuv).
  for (const v of variants.slice(1)) {
    console.log(
      `${v.name} vs off: gateway CPU per call ${(cpuPerCall(v) / cpuPerCall(off)).toFixed(2)}× (+${fmtMs(cpuPerCall(v) - cpuPerCall(off))}: ` +
        `main thread +${fmtMs(mainPerCall(v) - mainPerCall(off))}, other threads +${fmtMs(cpuPerCall(v) - mainPerCall(v) - (cpuPerCall(off) - mainPerCall(off)))})`,
    );
  }
  const ratio = tput(on) / tput(off);
  if (BASELINE) console.log(`baseline build, export on vs off: throughput ${(tput(variants[2]!) / tput(off)).toFixed(2)}×`);
  console.log(`\nOTLP export on vs off: throughput ${ratio.toFixed(2)}× (target ≥ 0.95×) ${ratio >= 0.95 ? 'OK' : 'UNDER'}`);
}
