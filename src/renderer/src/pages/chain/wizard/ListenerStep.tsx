// Wizard step 3: how clients reach the gateway (HTTP on loopback, or stdio launched by the client), its
// name, and whether to start it now.
export interface ListenerDraft {
  name: string;
  transport: 'http' | 'stdio';
  host: string;
  port: string;
  path: string;
  requireToken: boolean;
  /** Generated once, so the review shows the token that will be written. */
  token: string;
  start: boolean;
}

interface Props {
  value: ListenerDraft;
  onChange(v: ListenerDraft): void;
}

export function ListenerStep({ value: v, onChange }: Props) {
  const set = (patch: Partial<ListenerDraft>) => onChange({ ...v, ...patch });
  return (
    <div className="wizard-step" data-testid="wizard-listener">
      <label className="field">
        Gateway name
        <input type="text" aria-label="Gateway name" value={v.name} onChange={(e) => set({ name: e.target.value })} />
      </label>
      <div className="segmented" role="radiogroup" aria-label="Listener">
        <button type="button" role="radio" aria-checked={v.transport === 'http'} onClick={() => set({ transport: 'http' })}>
          HTTP (runs in the console)
        </button>
        <button type="button" role="radio" aria-checked={v.transport === 'stdio'} onClick={() => set({ transport: 'stdio', start: false })}>
          stdio (launched by the client)
        </button>
      </div>
      {v.transport === 'http' ? (
        <>
          <div className="row">
            <label className="field">
              Host
              <input type="text" aria-label="Host" value={v.host} onChange={(e) => set({ host: e.target.value })} />
            </label>
            <label className="field">
              Port <span className="hint">0 picks a free port at each start</span>
              <input type="number" aria-label="Port" min={0} max={65535} value={v.port} onChange={(e) => set({ port: e.target.value })} />
            </label>
            <label className="field">
              Path
              <input type="text" aria-label="Path" value={v.path} onChange={(e) => set({ path: e.target.value })} />
            </label>
          </div>
          {v.host !== '127.0.0.1' && v.host !== 'localhost' && v.host !== '::1' && (
            <div className="banner error">Binding to {v.host || '(empty)'} exposes the gateway beyond this machine; keep a token required.</div>
          )}
          <label className="check">
            <input type="checkbox" checked={v.requireToken} onChange={(e) => set({ requireToken: e.target.checked })} />
            Require a bearer token (generated; "Connect a client" shows it)
          </label>
          <label className="check">
            <input type="checkbox" checked={v.start} onChange={(e) => set({ start: e.target.checked })} />
            Start the gateway now
          </label>
        </>
      ) : (
        <p className="muted">
          An MCP client (Claude Desktop, Cursor, VS Code) starts the headless gateway itself; "Connect a client" on the Gateways page gives the exact snippet.
        </p>
      )}
    </div>
  );
}

export function listenConfig(v: ListenerDraft): Record<string, unknown> {
  if (v.transport === 'stdio') return { transport: 'stdio' };
  const token = v.requireToken ? v.token : undefined;
  return {
    transport: 'http',
    host: v.host.trim() || '127.0.0.1',
    port: Number(v.port) || 0,
    path: v.path.trim() || '/mcp',
    ...(token ? { tokens: { [token]: 'local-user' } } : {}),
  };
}

export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
