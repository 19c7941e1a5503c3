// Regex bench: every bundled sample on adversarial input (bench/fixtures/adversarial-samples.ts) at
// 64 KB and at 1 MB, through the sample host's real invoke path. Linear work gives a ratio near 16
// (1 MB / 64 KB); a quadratic pattern gives ~256. `measureSampleScaling` is exported so other
// benches (chaos) can print the same table.
import { createSampleHost } from '../src/main/interceptors/samples/index';
import { ADVERSARIAL_CASES } from './fixtures/adversarial-samples';
import { percentile, printTable } from './stats';

export interface ScalingRow {
  sample: string;
  input: string;
  smallMs: number;
  largeMs: number;
  /** largeMs / smallMs; linear ≈ largeBytes / smallBytes. */
  ratio: number;
}

export interface ScalingOptions {
  smallBytes?: number;
  largeBytes?: number;
  /** Timed runs per size (the fastest is kept). */
  runs?: number;
}

export async function measureSampleScaling(options: ScalingOptions = {}): Promise<ScalingRow[]> {
  const small = options.smallBytes ?? 64 * 1024;
  const large = options.largeBytes ?? 1024 * 1024;
  const runs = options.runs ?? 7;
  const rows: ScalingRow[] = [];
  for (const c of ADVERSARIAL_CASES) {
    const host = createSampleHost({ log: () => undefined });
    for (const p of c.setup ?? []) await host.invoke(p);
    // The small size runs as many times as it takes to process as many bytes as one large call, so
    // both timings are long enough for the clock and share the same share of noise.
    const repeat = Math.max(1, Math.round(large / small));
    const time = async (bytes: number): Promise<number> => {
      const params = c.params(bytes); // built outside the timed part
      const times = bytes === small ? repeat : 1;
      const start = performance.now();
      for (let i = 0; i < times; i++) await host.invoke(params);
      return (performance.now() - start) / times;
    };
    // Warm up at both sizes (JIT, string tables), then interleave the sizes so load drift hits both.
    await time(small);
    await time(large);
    const s: number[] = [];
    const l: number[] = [];
    for (let i = 0; i < runs; i++) {
      s.push(await time(small));
      l.push(await time(large));
    }
    // The fastest run is the closest to the work itself on a shared machine.
    const smallMs = percentile(s, 0);
    const largeMs = percentile(l, 0);
    rows.push({ sample: c.sample, input: c.input, smallMs, largeMs, ratio: largeMs / smallMs });
  }
  return rows;
}

/** The table as the regex and chaos benches print it. */
export function printSampleScaling(rows: ScalingRow[], options: ScalingOptions = {}): void {
  const linear = (options.largeBytes ?? 1024 * 1024) / (options.smallBytes ?? 64 * 1024);
  printTable(
    `Samples on adversarial input: time at 1 MB / time at 64 KB (linear ≈ ${linear}, quadratic ≈ ${linear * linear})`,
    ['sample', 'input', '64 KB', '1 MB', 'ratio', 'exponent', 'growth'],
    rows.map((r) => {
      // time ∝ size^k: k = 1 linear, 2 quadratic; cache and GC effects of 1 MB strings add a little.
      const k = Math.log(r.ratio) / Math.log(linear);
      return [
        r.sample,
        r.input,
        `${r.smallMs.toFixed(2)} ms`,
        `${r.largeMs.toFixed(2)} ms`,
        r.ratio.toFixed(1),
        k.toFixed(2),
        k <= 1.5 ? 'linear' : 'SUPER-LINEAR',
      ];
    }),
  );
}

export async function run(): Promise<void> {
  printSampleScaling(await measureSampleScaling());
}
