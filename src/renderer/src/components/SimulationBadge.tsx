// A badge for a gateway card: failure simulations are armed on this gateway (so its traffic is being
// made to fail on purpose). Refreshes with the gateways table; renders nothing when none is armed.
import { useApiQuery } from '../api/context';
import './simulation-badge.css';

export function SimulationBadge({ gatewayId }: { gatewayId: string }) {
  const sims = useApiQuery('simulation.list', { id: gatewayId }, ['gateways']);
  const list = sims.data ?? [];
  if (list.length === 0) return null;
  const title = list.map((s) => `${s.server}/${s.name}: next ${s.remaining} ${s.kind}`).join('\n');
  return (
    <a className="tag sim-badge" href="#/playground" title={title} aria-label={`Failure simulation armed: ${title}`}>
      ⚠ simulation armed ({list.reduce((n, s) => n + s.remaining, 0)})
    </a>
  );
}
