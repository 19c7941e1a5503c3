// One gateway: status, where it listens, its backend and interceptor servers, live counters, actions.
import { useState } from 'react';
import type { GatewayInfo } from '../../../../shared/api/models';
import { useApiMutation } from '../../api/context';
import { Status } from '../../components/Status';
import { ErrorBanner } from '../../components/ErrorBanner';
import { GatewayMetrics } from './GatewayMetrics';
import { ServerList } from './ServerList';
import { BackendHealthLine } from './BackendHealthLine';
import { ConnectDialog } from './ConnectDialog';
import { SimulationBadge } from '../../components/SimulationBadge';

export function GatewayCard({ gateway: g }: { gateway: GatewayInfo }) {
  const start = useApiMutation('gateways.start', ['gateways']);
  const stop = useApiMutation('gateways.stop', ['gateways']);
  const restart = useApiMutation('gateways.restart', ['gateways']);
  const remove = useApiMutation('gateways.delete', ['gateways']);
  const [connectOpen, setConnectOpen] = useState(false);
  const busy = g.status === 'starting' || g.status === 'stopping' || start.isPending || stop.isPending || restart.isPending;
  const live = g.status === 'running';
  const actionError = start.error ?? stop.error ?? restart.error ?? remove.error;

  return (
    <article className="card" aria-labelledby={`gw-${g.id}`}>
      <header className="card-head">
        <Status status={g.status} />
        {g.backendHealth?.state === 'failing' && <span className="status failed">backend failing</span>}
        <div className="title">
          <h2 id={`gw-${g.id}`}>{g.name}</h2>
          <span className="id mono">{g.id}</span>
        </div>
        {g.demo && <span className="tag accent">demo</span>}
        <SimulationBadge gatewayId={g.id} />
        <div className="actions">
          {g.listen.transport === 'stdio' ? (
            <span className="muted" title="An MCP client launches this gateway over stdio: see Connect a client.">
              Launched by the client
            </span>
          ) : live || g.status === 'stopping' ? (
            <button type="button" disabled={busy} onClick={() => stop.mutate({ id: g.id })}>
              Stop
            </button>
          ) : (
            <button type="button" className="primary" disabled={busy} onClick={() => start.mutate({ id: g.id })}>
              Start
            </button>
          )}
          {g.listen.transport === 'http' && (
            <button type="button" disabled={busy || !live} onClick={() => restart.mutate({ id: g.id })}>
              Restart
            </button>
          )}
          <a className="btn" style={{ textDecoration: 'none' }} href={`#/chain/${encodeURIComponent(g.id)}`}>
            Edit chain
          </a>
          <button type="button" onClick={() => setConnectOpen(true)}>
            Connect a client
          </button>
          <button
            type="button"
            className="danger ghost"
            aria-label={`Delete ${g.name}`}
            disabled={busy}
            onClick={() => {
              if (confirm(`Delete gateway "${g.name}"? Its config file is removed; recorded history stays.`)) remove.mutate({ id: g.id });
            }}
          >
            Delete
          </button>
        </div>
      </header>
      <div className="card-body">
        {g.error && (
          <div className="banner error" role="alert">
            {g.error}
          </div>
        )}
        <ErrorBanner error={actionError && !g.error ? actionError : null} />
        <dl className="facts">
          <div className="fact">
            <dt>Listens on</dt>
            <dd className="mono" title={g.listen.url}>
              {g.listen.transport === 'http' ? (g.listen.url ?? 'HTTP (port chosen at start)') : 'stdio (launched by the client)'}
              {g.listen.requiresToken ? ' · bearer token' : ''}
            </dd>
          </div>
          <div className="fact">
            <dt>Backend</dt>
            <dd title={g.backend.target}>
              <strong>{g.backend.name}</strong> <span className="tag">{g.backend.transport}</span> <span className="mono muted">{g.backend.target}</span>
              <BackendHealthLine health={g.backendHealth} />
            </dd>
          </div>
        </dl>
        <section aria-label={`Interceptor servers of ${g.name}`}>
          <h3 style={{ marginBottom: 6 }}>Interceptor servers</h3>
          <ServerList servers={g.interceptorServers} />
        </section>
        <GatewayMetrics id={g.id} />
      </div>
      <ConnectDialog gateway={g} open={connectOpen} onClose={() => setConnectOpen(false)} />
    </article>
  );
}
