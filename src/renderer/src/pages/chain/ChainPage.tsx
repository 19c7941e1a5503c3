// Chain: the visual chain editor of a gateway's interceptor chain (#/chain/<gateway id>), and the wizard
// that creates a gateway from scratch. Without an id in the address, the app-wide gateway (app-state.ts: the
// same as Playground's, Messages' and Paused's); picking one here (or following a link to one) changes it.
import { useEffect, useState } from 'react';
import { useApiQuery } from '../../api/context';
import { pickGateway, useSelectedGateway } from '../../app/app-state';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Status } from '../../components/Status';
import { ChainEditor } from './ChainEditor';
import { NewGatewayWizard } from './wizard/NewGatewayWizard';
import './chain.css';

function hashGateway(): string | undefined {
  const [route, id] = location.hash.replace(/^#\/?/, '').split('/');
  return route === 'chain' && id ? decodeURIComponent(id) : undefined;
}

export function ChainPage() {
  const gateways = useApiQuery('gateways.list', undefined, ['gateways']);
  const [wanted, setWanted] = useState(hashGateway);
  const [chosen, select] = useSelectedGateway();
  const [wizard, setWizard] = useState(false);
  useEffect(() => {
    const onHash = () => setWanted(hashGateway());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const list = gateways.data ?? [];
  const current = (wanted ? list.find((g) => g.id === wanted) : undefined) ?? pickGateway(list, chosen);
  // A gateway named in the address (a link, the back button) becomes the app's choice.
  useEffect(() => {
    if (current && wanted === current.id) select(current.id);
  }, [current, wanted, select]);
  const open = (id: string) => {
    select(id);
    location.hash = `#/chain/${encodeURIComponent(id)}`;
    setWanted(id);
  };

  return (
    <div className="page chain-page">
      <div className="page-head">
        <div>
          <h1>Chain</h1>
          <div className="sub">
            See and shape a gateway's interceptor chain exactly as the engine runs it. The canvas and the JSON tab edit the same config file.
          </div>
        </div>
        <div className="actions">
          {list.length > 0 && (
            <label className="inline">
              Gateway
              <select aria-label="Gateway" value={current?.id ?? ''} onChange={(e) => open(e.target.value)}>
                {list.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name} ({g.id})
                  </option>
                ))}
              </select>
            </label>
          )}
          {current && <Status status={current.status} />}
          <button type="button" className="primary" onClick={() => setWizard(true)}>
            New gateway…
          </button>
        </div>
      </div>
      <ErrorBanner error={gateways.error} />
      {wanted && gateways.isSuccess && !list.some((g) => g.id === wanted) && (
        <div className="banner error">No gateway with id "{wanted}"; showing another.</div>
      )}
      {gateways.isSuccess && list.length === 0 && (
        <div className="empty">
          <p>No gateways yet. Create one: pick a backend, add interceptor servers, choose how clients connect.</p>
          <button type="button" className="primary" onClick={() => setWizard(true)}>
            New gateway…
          </button>
        </div>
      )}
      {current && <ChainEditor key={current.id} id={current.id} />}
      <NewGatewayWizard
        open={wizard}
        onClose={() => setWizard(false)}
        onCreated={(id) => {
          setWizard(false);
          open(id);
        }}
      />
    </div>
  );
}
