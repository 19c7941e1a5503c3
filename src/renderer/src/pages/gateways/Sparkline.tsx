// A tiny latency chart: p50 per time bucket; empty buckets leave gaps instead of fake zeros.
import type { LatencyBucket } from '../../../../shared/api/models';

export function Sparkline({ buckets, width = 180, height = 30 }: { buckets: LatencyBucket[]; width?: number; height?: number }) {
  const values = buckets.map((b) => b.p50Ms);
  const max = Math.max(1, ...values.filter((v): v is number => v !== null));
  const step = buckets.length > 1 ? width / (buckets.length - 1) : width;
  const segments: string[] = [];
  let current = '';
  values.forEach((v, i) => {
    if (v === null) {
      if (current) segments.push(current);
      current = '';
      return;
    }
    const x = (i * step).toFixed(1);
    const y = (height - 2 - (v / max) * (height - 4)).toFixed(1);
    current += `${current ? 'L' : 'M'}${x},${y}`;
  });
  if (current) segments.push(current);
  const dots = values
    .map((v, i) => (v === null ? null : { x: i * step, y: height - 2 - (v / max) * (height - 4) }))
    .filter((d, i, all) => d && (values[i - 1] ?? null) === null && (values[i + 1] ?? null) === null && all.length > 0);
  return (
    <svg width={width} height={height} role="img" aria-label="p50 latency over time">
      <line x1="0" x2={width} y1={height - 1} y2={height - 1} stroke="var(--border)" />
      {segments.map((d, i) => (
        <path key={i} d={d} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
      ))}
      {dots.map((d, i) => d && <circle key={`d${i}`} cx={d.x} cy={d.y} r="1.8" fill="currentColor" />)}
    </svg>
  );
}
