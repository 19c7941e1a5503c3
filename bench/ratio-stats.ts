// Statistics for ratios measured in paired rounds on a noisy machine (bench/otel.ts): each block of rounds gives
// one ratio (variant vs reference, measured seconds apart); the median of the blocks' ratios, its interquartile
// range and a bootstrap interval say how sure the run is. A fixed-seed generator keeps the interval reproducible
// from the same samples.
import { percentile } from './stats';

export interface RatioSummary {
  n: number;
  median: number;
  /** 25th and 75th percentiles of the per-block ratios: half of the blocks fall inside. */
  q1: number;
  q3: number;
  /** 95% percentile-bootstrap interval of the median (resampling the blocks). */
  ciLow: number;
  ciHigh: number;
}

/** mulberry32: a small seeded PRNG, enough for resampling. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Linear-interpolated quantile (the usual "type 7"), q in [0, 1]. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export function summarizeRatios(ratios: number[], resamples = 4000, seed = 18): RatioSummary {
  const random = seeded(seed);
  const medians: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const sample = ratios.map(() => ratios[Math.floor(random() * ratios.length)]!);
    medians.push(median(sample));
  }
  return {
    n: ratios.length,
    median: median(ratios),
    q1: quantile(ratios, 0.25),
    q3: quantile(ratios, 0.75),
    ciLow: percentile(medians, 2.5),
    ciHigh: percentile(medians, 97.5),
  };
}

export function fmtRatio(s: RatioSummary): string {
  return `${s.median.toFixed(3)}× (IQR ${s.q1.toFixed(3)}–${s.q3.toFixed(3)}, 95% CI of the median ${s.ciLow.toFixed(3)}–${s.ciHigh.toFixed(3)}, ${s.n} blocks)`;
}

/**
 * Orders for n variants that balance position and succession: every rotation of the list and every rotation
 * reversed (for 3 variants these are all 6 permutations). Block b runs orders[b % orders.length].
 */
export function balancedOrders(n: number): number[][] {
  const base = Array.from({ length: n }, (_, i) => i);
  const rotations = base.map((_, r) => base.map((i) => (i + r) % n));
  const reversed = rotations.map((o) => [...o].reverse());
  const seen = new Set<string>();
  return [...rotations, ...reversed].filter((o) => !seen.has(o.join()) && seen.add(o.join()));
}
