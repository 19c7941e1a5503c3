// Counters and the latency sparkline of one gateway, from the store's aggregates.
import { useApiQuery } from '../../api/context';
import { Sparkline } from './Sparkline';

const WINDOW_MINUTES = 15;

function formatMs(ms: number | null): string {
  if (ms === null) return '–';
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

export function GatewayMetrics({ id }: { id: string }) {
  // The window slides with time, so refetch now and then even without new traffic.
  const stats = useApiQuery('gateways.stats', { id, minutes: WINDOW_MINUTES }, ['executions'], { refetchInterval: 30_000 });
  const c = stats.data?.counters;
  const rec = stats.data?.recorder;
  return (
    <div>
      <dl className="metrics" aria-label="Counters">
        <Metric label="Calls" value={c?.calls} />
        <Metric label="Blocked" value={c?.blocked} tone={c?.blocked ? 'warn' : undefined} />
        <Metric label="Mutated" value={c?.mutated} />
        <Metric label="Errors" value={c?.errors} tone={c?.errors ? 'bad' : undefined} />
        <div className="metric">
          <dt>p50</dt>
          <dd>{c ? formatMs(c.p50Ms) : '…'}</dd>
        </div>
        <div className="spark">
          <Sparkline buckets={stats.data?.buckets ?? []} />
          <span className="cap">
            <span>Calls (bars) and p50 latency (line)</span>
            <span>last {WINDOW_MINUTES} min</span>
          </span>
        </div>
      </dl>
      {rec && rec.failed > 0 && (
        <div className="banner error" role="alert" style={{ marginTop: 8 }}>
          {rec.failed} execution{rec.failed === 1 ? '' : 's'} could not be recorded{rec.lastError ? `: ${rec.lastError}` : ''}
        </div>
      )}
    </div>
  );
}

function Metric({ label, value, tone }: { label: string; value: number | undefined; tone?: 'bad' | 'warn' }) {
  return (
    <div className={`metric ${tone ?? ''}`}>
      <dt>{label}</dt>
      <dd aria-label={label}>{value === undefined ? '…' : value.toLocaleString()}</dd>
    </div>
  );
}
