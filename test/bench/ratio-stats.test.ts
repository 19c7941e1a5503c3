// The statistics bench/otel.ts rests its verdict on: the block orders are balanced, the quantiles are the usual
// ones, and the bootstrap interval of the median behaves (contains the median, narrows with more blocks,
// is reproducible from the same samples).
import { describe, expect, it } from 'vitest';
import { balancedOrders, median, quantile, summarizeRatios } from '../../bench/ratio-stats';

describe('bench ratio statistics', () => {
  it('balanced orders: every variant in every position equally often, and for 3 variants all 6 permutations', () => {
    const three = balancedOrders(3);
    expect(new Set(three.map((o) => o.join()))).toEqual(new Set(['0,1,2', '0,2,1', '1,0,2', '1,2,0', '2,0,1', '2,1,0']));
    for (const n of [2, 3, 4, 5]) {
      const orders = balancedOrders(n);
      for (let pos = 0; pos < n; pos++) {
        const counts = Array.from({ length: n }, (_, v) => orders.filter((o) => o[pos] === v).length);
        expect(new Set(counts).size).toBe(1);
      }
    }
  });

  it('median and quantiles', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
    expect(quantile([1, 2, 3, 4], 0.75)).toBeCloseTo(3.25);
  });

  it('the bootstrap interval contains the median, narrows with more blocks and is the same for the same samples', () => {
    // Deterministic "noisy" ratios around 0.97: a spread like a loaded machine's.
    const noisy = (n: number) => Array.from({ length: n }, (_, i) => 0.97 + 0.15 * Math.sin(i * 2.399));
    const few = summarizeRatios(noisy(8));
    const many = summarizeRatios(noisy(200));
    for (const s of [few, many]) {
      expect(s.ciLow).toBeLessThanOrEqual(s.median);
      expect(s.ciHigh).toBeGreaterThanOrEqual(s.median);
      expect(s.q1).toBeLessThanOrEqual(s.median);
      expect(s.q3).toBeGreaterThanOrEqual(s.median);
    }
    expect(many.ciHigh - many.ciLow).toBeLessThan((few.ciHigh - few.ciLow) / 2);
    expect(many.ciLow).toBeGreaterThan(0.9);
    expect(many.ciHigh).toBeLessThan(1.04);
    expect(summarizeRatios(noisy(8))).toEqual(few);
  });
});
