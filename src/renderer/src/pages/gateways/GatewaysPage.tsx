// Gateways: one card per gateway, with creation from an example and import from client configs.
import { useState } from 'react';
import { useApiQuery } from '../../api/context';
import { ErrorBanner } from '../../components/ErrorBanner';
import { GatewayCard } from './GatewayCard';
import { ExampleDialog } from './ExampleDialog';
import { ImportDialog } from './ImportDialog';

export function GatewaysPage() {
  const gateways = useApiQuery('gateways.list', undefined, ['gateways']);
  const info = useApiQuery('app.info', undefined, []);
  const [dialog, setDialog] = useState<'example' | 'import' | null>(null);
  const list = gateways.data ?? [];
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Gateways</h1>
          <div className="sub">MCP proxies that run every request and response through their interceptor chain.</div>
        </div>
        <div className="actions">
          <button onClick={() => setDialog('import')}>Import servers…</button>
          <button className="primary" onClick={() => setDialog('example')}>
            New from example…
          </button>
        </div>
      </div>
      <ErrorBanner error={gateways.error} />
      {info.data?.storeError && (
        <div className="banner error" role="alert" style={{ marginBottom: 14 }}>
          History is kept in memory only (lost on exit): {info.data.storeError}
        </div>
      )}
      {gateways.isSuccess && list.length === 0 && (
        <div className="empty">
          <p>No gateways yet.</p>
          <button className="primary" onClick={() => setDialog('example')}>
            Create one from an example
          </button>
        </div>
      )}
      <div className="cards">
        {list.map((g) => (
          <GatewayCard key={g.id} gateway={g} />
        ))}
      </div>
      <ExampleDialog open={dialog === 'example'} onClose={() => setDialog(null)} />
      <ImportDialog open={dialog === 'import'} onClose={() => setDialog(null)} />
    </div>
  );
}
