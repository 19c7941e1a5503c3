// Shown above the Playground tabs while failure simulations are armed on the selected gateway: a
// simulation changes live traffic, so it must never be easy to forget.
import { useApiMutation, useApiQuery } from '../../../api/context';

export function SimulationBanner({ gatewayId, onOpen }: { gatewayId: string; onOpen(): void }) {
  const sims = useApiQuery('simulation.list', { id: gatewayId }, ['gateways']);
  const disarm = useApiMutation('simulation.disarm', ['gateways']);
  const list = sims.data ?? [];
  if (list.length === 0) return null;
  return (
    <div className="banner sim-banner" role="alert" aria-label="Failure simulation armed">
      <strong>Failure simulation armed</strong>
      <span>
        {list
          .map((s) => `${s.server}/${s.name}: next ${s.remaining} invocation${s.remaining === 1 ? '' : 's'} ${s.kind === 'crash' ? 'crash' : 'time out'}`)
          .join(' · ')}
      </span>
      <span className="sim-actions">
        <button type="button" className="small" onClick={onOpen}>
          Details
        </button>
        <button type="button" className="small" onClick={() => disarm.mutate({ id: gatewayId })}>
          Disarm all
        </button>
      </span>
    </div>
  );
}
