// Import MCP servers from a Claude Desktop, Cursor or VS Code config file: each becomes a gateway
// whose backend is that server, so it can be put behind interceptors.
import { useState } from 'react';
import type { ParsedClientConfig } from '../../../../shared/api/models';
import { useApiMutation } from '../../api/context';
import { CodeBlock } from '../../components/CodeBlock';
import { Dialog } from '../../components/Dialog';
import { ErrorBanner } from '../../components/ErrorBanner';
import { STDIO_ENVIRONMENT_NOTE } from '../../../../shared/client-config/parse';

export function ImportDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const parse = useApiMutation('gateways.parseClientConfig');
  const importServers = useApiMutation('gateways.importServers', ['gateways']);
  const [text, setText] = useState('');
  const [parsed, setParsed] = useState<ParsedClientConfig>();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [withSamples, setWithSamples] = useState(true);

  function read(t: string) {
    setText(t);
    setParsed(undefined);
    if (!t.trim()) return;
    parse.mutate(
      { text: t },
      {
        onSuccess: (r) => {
          setParsed(r);
          setSelected(new Set(r.servers.map((s) => s.name)));
        },
      },
    );
  }

  function close() {
    setText('');
    setParsed(undefined);
    parse.reset();
    importServers.reset();
    onClose();
  }

  const chosen = parsed?.servers.filter((s) => selected.has(s.name)) ?? [];
  const done = importServers.data;
  if (done) {
    const stopped = new Map(done.notStarted.map((n) => [n.id, n.reason]));
    return (
      <Dialog
        title="Servers imported"
        open={open}
        onClose={close}
        footer={
          <button className="primary" onClick={close}>
            Done
          </button>
        }
      >
        <section className="list" aria-label="Imported gateways">
          {done.gateways.map((g) => (
            <div key={g.id} className="option">
              <strong>{g.name}</strong> <span className={`tag ${g.status}`}>{g.status}</span>
              {stopped.has(g.id) && <div className="muted">Not started: {stopped.get(g.id)}</div>}
            </div>
          ))}
        </section>
        <p className="muted">
          To send your client&apos;s traffic through these gateways, replace its entries for these servers with the ones below (each launches the server through
          its gateway), then restart the client.
        </p>
        <CodeBlock text={done.clientConfig} label="Client config to paste back" />
      </Dialog>
    );
  }
  return (
    <Dialog
      title="Import servers from a client config"
      open={open}
      onClose={close}
      footer={
        <>
          <button onClick={close}>Cancel</button>
          <button
            className="primary"
            disabled={chosen.length === 0 || importServers.isPending}
            onClick={() => importServers.mutate({ servers: chosen, withSamples, format: parsed?.format ?? 'mcpServers' })}
          >
            {importServers.isPending ? 'Importing…' : `Create ${chosen.length} gateway${chosen.length === 1 ? '' : 's'}`}
          </button>
        </>
      }
    >
      <div className="muted">
        Paste <span className="mono">claude_desktop_config.json</span>, Cursor&apos;s <span className="mono">mcp.json</span> or VS Code&apos;s{' '}
        <span className="mono">.vscode/mcp.json</span>, or pick the file.
      </div>
      <label className="field">
        Config file
        <input
          type="file"
          accept=".json,.jsonc,application/json"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void f.text().then(read);
          }}
        />
      </label>
      <label className="field">
        Config text
        <textarea rows={8} value={text} onChange={(e) => read(e.target.value)} spellCheck={false} placeholder='{ "mcpServers": { … } }' />
      </label>
      <ErrorBanner error={parse.error} />
      {parsed && (
        <section className="list" aria-label="Servers found">
          <h3>
            {parsed.servers.length} server{parsed.servers.length === 1 ? '' : 's'} found ({parsed.format === 'vscode' ? 'VS Code' : 'mcpServers'})
          </h3>
          {parsed.servers.map((s) => (
            <label key={s.name} className="option">
              <input
                type="checkbox"
                checked={selected.has(s.name)}
                onChange={(e) => {
                  const next = new Set(selected);
                  if (e.target.checked) next.add(s.name);
                  else next.delete(s.name);
                  setSelected(next);
                }}
              />
              <span>
                <strong>{s.name}</strong> <span className="tag">{s.transport}</span>
                <div className="mono muted">{s.transport === 'stdio' ? [s.command, ...(s.args ?? [])].join(' ') : s.url}</div>
              </span>
            </label>
          ))}
          {parsed.skipped.map((s) => (
            <div key={s.name} className="muted">
              Skipped {s.name}: {s.reason}
            </div>
          ))}
          {parsed.servers.some((s) => s.transport === 'stdio') && (
            <div className="muted" role="note">
              {STDIO_ENVIRONMENT_NOTE}
            </div>
          )}
          <label className="check">
            <input type="checkbox" checked={withSamples} onChange={(e) => setWithSamples(e.target.checked)} />
            Put the sample interceptors in front of each
          </label>
        </section>
      )}
      <ErrorBanner error={importServers.error} />
    </Dialog>
  );
}
