// Playground: invoke one interceptor by hand, dry-run a gateway's chain, call a gateway or server as an
// MCP client, and arm failure simulations. The gateway picked here is the app-wide one (app-state.ts:
// the same in Chain, Messages and Paused) and is shared by every tab; an armed
// simulation on it is announced above the tabs, whatever tab is open, and so are the server's requests
// waiting for an answer in the Client tab (a count badge on that tab).
import { useEffect, useState } from 'react';
import { useApi, useApiQuery } from '../../api/context';
import { ErrorBanner } from '../../components/ErrorBanner';
import { InvokeTab } from './invoke/InvokeTab';
import { DryRunTab } from './dry-run/DryRunTab';
import { ClientTab } from './client/ClientTab';
import { SimulationTab } from './simulation/SimulationTab';
import { SimulationBanner } from './simulation/SimulationBanner';
import { useExecutionLink } from './execution-link';
import { pickGateway, useSelectedGateway } from '../../app/app-state';
import './playground.css';

const TABS = [
  { id: 'invoke', label: 'Invoke' },
  { id: 'dry-run', label: 'Dry-run chain' },
  { id: 'client', label: 'Client' },
  { id: 'simulation', label: 'Failure simulation' },
] as const;
type Tab = (typeof TABS)[number]['id'];

export function PlaygroundPage() {
  const gateways = useApiQuery('gateways.list', undefined, ['gateways']);
  const [chosen, setGatewayId] = useSelectedGateway();
  const [tab, setTab] = useState<Tab>('invoke');
  const [clientWaiting, setClientWaiting] = useState(0);
  const list = gateways.data ?? [];
  const { link, error: linkError } = useExecutionLink(useApi());

  // A followed link switches to its execution's gateway and tab; the tab takes the payload from the seed.
  useEffect(() => {
    if (!link) return;
    setGatewayId(link.seed.gateway);
    setTab(link.tab);
  }, [link]);

  const gateway = pickGateway(list, chosen);
  const gatewayId = gateway?.id;
  return (
    <div className="page playground">
      <div className="page-head">
        <div>
          <h1>Playground</h1>
          <div className="sub">Invoke interceptors by hand, dry-run a chain, call tools through a gateway, and rehearse failures.</div>
        </div>
        <div className="actions">
          <label className="inline-field">
            Gateway
            <select aria-label="Gateway" value={gatewayId ?? ''} onChange={(e) => setGatewayId(e.target.value)}>
              {list.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name} ({g.id}) · {g.status}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      <ErrorBanner error={gateways.error ?? linkError} />
      {gatewayId && <SimulationBanner gatewayId={gatewayId} onOpen={() => setTab('simulation')} />}
      {gateways.isSuccess && list.length === 0 && (
        <div className="empty">Create a gateway first (Gateways page): the Playground works on its interceptor servers.</div>
      )}
      <div className="tabs" role="tablist" aria-label="Playground">
        {TABS.map((t) => {
          // A sampling or elicitation request blocks the server (and the tool call that caused it) until
          // answered: shown on the Client tab so that it is seen from the other tabs too.
          const waiting = t.id === 'client' ? clientWaiting : 0;
          return (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={tab === t.id}
              onClick={() => setTab(t.id)}
              title={waiting > 0 ? `${waiting} server request${waiting === 1 ? '' : 's'} waiting for your answer in Pending requests` : undefined}
            >
              {t.label}
              {waiting > 0 && (
                <span className="tab-badge" aria-label={`${waiting} waiting`}>
                  {waiting}
                </span>
              )}
            </button>
          );
        })}
      </div>
      {gateway && (
        <div className="tab-panel" role="tabpanel" aria-label={TABS.find((t) => t.id === tab)!.label}>
          {/* Tabs stay mounted so switching keeps each one's work (payloads, runs, client session). */}
          <div hidden={tab !== 'invoke'}>
            <InvokeTab gateway={gateway} seed={link?.tab === 'invoke' ? link.seed : undefined} />
          </div>
          <div hidden={tab !== 'dry-run'}>
            <DryRunTab gateway={gateway} seed={link?.tab === 'dry-run' ? link.seed : undefined} />
          </div>
          <div hidden={tab !== 'client'}>
            <ClientTab gateways={list} current={gateway} onSelectGateway={setGatewayId} onWaitingCount={setClientWaiting} />
          </div>
          <div hidden={tab !== 'simulation'}>
            <SimulationTab gateway={gateway} />
          </div>
        </div>
      )}
    </div>
  );
}
