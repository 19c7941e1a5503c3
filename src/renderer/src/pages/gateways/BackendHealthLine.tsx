// A running gateway's backend as the gateway last reached it: connected, failing (with the error and
// since when), or not connected yet. Without it a gateway whose backend is down looks healthy ("Running").
import type { BackendHealth } from '../../../../shared/api/models';
import { timeOfDay } from '../../time-format';

function clock(iso: string | undefined): string {
  return iso ? timeOfDay(iso) : '';
}

export function BackendHealthLine({ health }: { health: BackendHealth | undefined }) {
  if (!health) return null;
  if (health.state === 'failing') {
    return (
      <div className="banner error" role="alert" aria-label="Backend health" data-state="failing">
        Backend unreachable since {clock(health.since)} ({health.failures} failed {health.failures === 1 ? 'attempt' : 'attempts'}): {health.error}
      </div>
    );
  }
  return (
    <div className="muted" role="note" aria-label="Backend health" data-state={health.state}>
      {health.state === 'connected' ? `Backend connected since ${clock(health.since)}` : 'Backend not connected yet: the first client connects it'}
    </div>
  );
}
