// "Connect a client": the exact snippet for Claude Desktop, Cursor and VS Code, over stdio (the client
// launches the headless gateway) or the running HTTP listener.
import { useState } from 'react';
import type { GatewayInfo } from '../../../../shared/api/models';
import { useApiQuery } from '../../api/context';
import { CodeBlock } from '../../components/CodeBlock';
import { Dialog } from '../../components/Dialog';
import { ErrorBanner } from '../../components/ErrorBanner';

const CLIENTS = [
  { key: 'claudeDesktop', label: 'Claude Desktop', file: 'claude_desktop_config.json (Settings → Developer → Edit Config)' },
  { key: 'cursor', label: 'Cursor', file: '~/.cursor/mcp.json, or .cursor/mcp.json in a project' },
  { key: 'vscode', label: 'VS Code', file: '.vscode/mcp.json in the workspace' },
] as const;

export function ConnectDialog({ gateway, open, onClose }: { gateway: GatewayInfo; open: boolean; onClose(): void }) {
  const [client, setClient] = useState<(typeof CLIENTS)[number]['key']>('claudeDesktop');
  const snippets = useApiQuery('gateways.snippets', { id: gateway.id }, ['gateways'], { enabled: open });
  const s = snippets.data;
  const meta = CLIENTS.find((c) => c.key === client)!;
  return (
    <Dialog title={`Connect a client to ${gateway.name}`} open={open} onClose={onClose} footer={<button onClick={onClose}>Done</button>}>
      <div className="tabs" role="tablist" aria-label="Client">
        {CLIENTS.map((c) => (
          <button key={c.key} role="tab" aria-selected={c.key === client} onClick={() => setClient(c.key)}>
            {c.label}
          </button>
        ))}
      </div>
      <ErrorBanner error={snippets.error} />
      {s && (
        <>
          <div className="muted">
            Add this to <span className="mono">{meta.file}</span>, then restart {meta.label}.
          </div>
          {s.http && (
            <section className="list">
              <h3>Over HTTP (this gateway, while it runs)</h3>
              <CodeBlock label={`${meta.label} HTTP snippet`} text={s.http[client]} />
            </section>
          )}
          <section className="list">
            <h3>Over stdio ({meta.label} launches the headless gateway)</h3>
            <CodeBlock label={`${meta.label} stdio snippet`} text={s.stdio[client]} />
            <div className="muted" data-testid="stdio-config-path">
              Runs <span className="mono">{s.stdio.configPath}</span>, the file the Chain screen saves: a saved chain is what this client runs, reloaded while
              it runs.
            </div>
            <div className="muted">Traffic from the client is recorded in this console&apos;s history. Same command in a shell:</div>
            <CodeBlock label="Command line" text={s.stdio.command} />
            {s.stdio.dbNote && (
              <div className="muted" data-testid="stdio-db-note">
                {s.stdio.dbNote}
              </div>
            )}
          </section>
        </>
      )}
    </Dialog>
  );
}
