// A compact chart of the recent window: bars for calls per time bucket, a line for their p50 latency.
// Empty buckets draw nothing (no fake zeros). It stretches to the width it is given.
import type { LatencyBucket } from '../../../../shared/api/models';

const W = 300;
const H = 40;

export function Sparkline({ buckets }: { buckets: LatencyBucket[] }) {
  const n = buckets.length;
  if (n === 0 || buckets.every((b) => b.calls === 0)) {
    return <div className="spark-empty">No traffic in this window</div>;
  }
  const slot = W / n;
  const maxCalls = Math.max(1, ...buckets.map((b) => b.calls));
  const maxP50 = Math.max(1, ...buckets.map((b) => b.p50Ms ?? 0));
  const y = (ms: number) => H - 3 - (ms / maxP50) * (H - 8);
  const segments: string[] = [];
  let current = '';
  buckets.forEach((b, i) => {
    if (b.p50Ms === null) {
      if (current) segments.push(current);
      current = '';
      return;
    }
    const x = i * slot + slot / 2;
    // An isolated point becomes a short tick so it stays visible.
    current += current
      ? `L${x.toFixed(1)},${y(b.p50Ms).toFixed(1)}`
      : `M${(x - slot * 0.35).toFixed(1)},${y(b.p50Ms).toFixed(1)}H${(x + slot * 0.35).toFixed(1)}`;
  });
  if (current) segments.push(current);
  return (
    <svg className="sparkline" viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label="p50 latency over time">
      {buckets.map((b, i) =>
        b.calls > 0 ? (
          <rect
            key={i}
            x={i * slot + slot * 0.15}
            width={slot * 0.7}
            y={H - 1 - (b.calls / maxCalls) * (H - 6)}
            height={(b.calls / maxCalls) * (H - 6)}
            rx="1"
            className="bar"
          >
            <title>{`${b.calls} calls, p50 ${b.p50Ms === null ? '–' : `${b.p50Ms.toFixed(1)} ms`}`}</title>
          </rect>
        ) : null,
      )}
      {segments.map((d, i) => (
        <path key={i} d={d} className="line" vectorEffect="non-scaling-stroke" />
      ))}
      <line x1="0" x2={W} y1={H - 0.5} y2={H - 0.5} className="axis" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}
