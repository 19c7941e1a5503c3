// Client: the console as an MCP client. The connection lives in the core (client.* procedures); this
// tab picks the target, lists what the server offers and calls it with schema-generated forms. Calls
// through a gateway go through its chain and are recorded, so they appear in Traffic. The client declares
// sampling, elicitation and roots: the server's requests wait in Pending requests for the user's answer.
// A URL whose server asks for OAuth is authorized in the user's browser first (AuthorizationPrompt).
// The connection belongs to the app, not to this screen (app-state.ts): leaving the Playground keeps it,
// with whatever the server asked, and coming back shows it again. Only Disconnect (or Reconnect) closes it,
// and the core then answers the server's waiting requests with an error saying so. The gateway picker is
// the app-wide gateway choice (the Playground's, Chain's, Messages' and Paused's).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { GatewayInfo } from '../../../../../shared/api/models';
import type { ClientCatalog, ClientSession, ClientTarget } from '../../../../../shared/api/models-playground';
import { useApi } from '../../../api/context';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { DEFAULT_ANSWER_TIMEOUT_MS, type ClientRoot } from '../../../../../shared/api/models-client-requests';
import { AuthorizationPrompt } from './AuthorizationPrompt';
import { Catalog } from './Catalog';
import { RootsEditor } from './RootsEditor';
import { SessionTools } from './SessionTools';
import { NotificationsPane } from './NotificationsPane';
import { parseEnvLines, parseHeaderLines } from './connection-fields';
import { ServerRequests } from './ServerRequests';
import { useClientSession } from '../../../app/app-state';

const ROOTS_KEY = 'interceptor-console.client.roots';

/** The roots kept from the last visit (this browser profile); none on first use. */
function storedRoots(): ClientRoot[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(ROOTS_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((r): r is ClientRoot => typeof r?.uri === 'string') : [];
  } catch {
    return [];
  }
}

type Kind = ClientTarget['kind'];

export function ClientTab({
  gateways,
  current,
  onSelectGateway,
  onWaitingCount,
}: {
  gateways: GatewayInfo[];
  /** The app-wide gateway: what "A gateway" connects to. */
  current: GatewayInfo;
  onSelectGateway(id: string): void;
  /** Server requests waiting in Pending requests (see ServerRequests). */
  onWaitingCount?: (count: number) => void;
}) {
  const api = useApi();
  const [kind, setKind] = useState<Kind>('gateway');
  const gatewayId = current.id;
  const [command, setCommand] = useState('');
  const [url, setUrl] = useState('');
  const [auth, setAuth] = useState('');
  const [envText, setEnvText] = useState('');
  const [headersText, setHeadersText] = useState('');
  const [session, setSession] = useState<ClientSession>();
  const [catalog, setCatalog] = useState<ClientCatalog>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [roots, setRoots] = useState<ClientRoot[]>(storedRoots);
  const [answerSeconds, setAnswerSeconds] = useState(String(DEFAULT_ANSWER_TIMEOUT_MS / 1000));
  const [appSession, setAppSession] = useClientSession();
  const sessionRef = useRef<string | undefined>(appSession);

  // Back on this screen (or after a reload): the app's connection, as the core has it, with its lists.
  useEffect(() => {
    const id = sessionRef.current;
    if (!id) return;
    let live = true;
    void (async () => {
      const r = await api.result('client.sessions');
      const found = r.ok ? r.value.find((x) => x.sessionId === id) : undefined;
      if (!live || sessionRef.current !== id) return;
      if (!found) {
        // Closed meanwhile (the server went away): nothing to show.
        sessionRef.current = undefined;
        setAppSession(undefined);
        return;
      }
      setSession(found);
      setKind(found.target.kind);
      if (found.target.kind === 'stdio') setCommand(found.target.command);
      if (found.target.kind === 'http') setUrl(found.target.url);
      const listed = await api.result('client.list', { sessionId: id });
      if (live && sessionRef.current === id && listed.ok) setCatalog(listed.value);
    })();
    return () => {
      live = false;
    };
  }, [api, setAppSession]);

  const target = (): ClientTarget => {
    if (kind === 'gateway') return { kind, id: gatewayId };
    if (kind === 'stdio') {
      const env = parseEnvLines(envText);
      return { kind, command, ...(Object.keys(env).length ? { env } : {}) };
    }
    const headers = { ...parseHeaderLines(headersText), ...(auth.trim() ? { Authorization: auth.trim() } : {}) };
    return { kind, url, ...(Object.keys(headers).length ? { headers } : {}) };
  };

  const connect = async () => {
    setBusy(true);
    setError(undefined);
    try {
      if (session) await api.result('client.disconnect', { sessionId: session.sessionId });
      const seconds = Number(answerSeconds);
      const answerTimeoutMs = Number.isFinite(seconds) && answerSeconds.trim() !== '' ? Math.round(seconds * 1000) : undefined;
      const s = await api.call('client.connect', { target: target(), roots, ...(answerTimeoutMs !== undefined ? { answerTimeoutMs } : {}) });
      setSession(s);
      sessionRef.current = s.sessionId;
      setAppSession(s.sessionId);
      setCatalog(await api.call('client.list', { sessionId: s.sessionId }));
    } catch (err) {
      setError(err);
      setSession(undefined);
      setCatalog(undefined);
      sessionRef.current = undefined;
      setAppSession(undefined);
    } finally {
      setBusy(false);
    }
  };

  const disconnect = async () => {
    if (session) await api.result('client.disconnect', { sessionId: session.sessionId });
    setSession(undefined);
    setCatalog(undefined);
    sessionRef.current = undefined;
    setAppSession(undefined);
  };

  /** The session as the core has it now (roots, when the server last read them). */
  const refreshSession = useCallback(async () => {
    const id = sessionRef.current;
    if (!id) return;
    const r = await api.result('client.sessions');
    const found = r.ok ? r.value.find((x) => x.sessionId === id) : undefined;
    if (found && sessionRef.current === id) setSession(found);
  }, [api]);

  const applyRoots = async (next: ClientRoot[]) => {
    setError(undefined);
    try {
      if (session) {
        const out = await api.call('client.setRoots', { sessionId: session.sessionId, roots: next });
        setRoots(out.roots);
        await refreshSession();
      } else setRoots(next);
      localStorage.setItem(ROOTS_KEY, JSON.stringify(next));
    } catch (err) {
      setError(err);
    }
  };

  const refresh = async () => {
    if (!session) return;
    try {
      setCatalog(await api.call('client.list', { sessionId: session.sessionId }));
    } catch (err) {
      setError(err);
    }
  };

  const runnable = gateways.filter((g) => g.listen.transport === 'http' || g.id === current.id);
  return (
    <div className="client-tab">
      <section className="card pg-card" aria-label="Connection">
        <div className="row">
          <div className="seg" role="radiogroup" aria-label="Connect to">
            {(['gateway', 'stdio', 'http'] as const).map((k) => (
              <label key={k} className={kind === k ? 'on' : ''}>
                <input type="radio" name="client-kind" checked={kind === k} onChange={() => setKind(k)} />
                {k === 'gateway' ? 'A gateway' : k === 'stdio' ? 'A command (stdio)' : 'A URL (Streamable HTTP)'}
              </label>
            ))}
          </div>
        </div>
        <div className="row">
          {kind === 'gateway' && (
            <label className="field grow">
              Gateway
              <select aria-label="Client gateway" value={gatewayId} onChange={(e) => onSelectGateway(e.target.value)}>
                {runnable.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name} · {g.listen.transport === 'http' ? (g.listen.url ?? 'not listening') : 'stdio: no HTTP listener'} · {g.status}
                  </option>
                ))}
              </select>
            </label>
          )}
          {kind === 'stdio' && (
            <label className="field grow">
              Command line
              <input
                type="text"
                className="mono"
                aria-label="Server command"
                placeholder="npx -y @modelcontextprotocol/server-everything"
                value={command}
                onChange={(e) => setCommand(e.target.value)}
              />
            </label>
          )}
          {kind === 'stdio' && (
            <label className="field">
              Environment
              <textarea
                rows={2}
                className="mono"
                aria-label="Environment variables"
                placeholder={'API_KEY=…\n(one NAME=value per line)'}
                value={envText}
                onChange={(e) => setEnvText(e.target.value)}
              />
            </label>
          )}
          {kind === 'http' && (
            <>
              <label className="field grow">
                URL
                <input
                  type="text"
                  className="mono"
                  aria-label="Server URL"
                  placeholder="http://127.0.0.1:3001/mcp"
                  value={url}
                  onChange={(e) => setUrl(e.target.value)}
                />
              </label>
              <label className="field">
                Authorization header
                <input type="text" aria-label="Authorization header" placeholder="Bearer …" value={auth} onChange={(e) => setAuth(e.target.value)} />
              </label>
              <label className="field">
                Other headers
                <textarea
                  rows={2}
                  className="mono"
                  aria-label="Other headers"
                  placeholder={'X-Api-Key: …\n(one Name: value per line)'}
                  value={headersText}
                  onChange={(e) => setHeadersText(e.target.value)}
                />
              </label>
            </>
          )}
          <label className="field narrow">
            Answer within (s)
            <input
              type="number"
              min={1}
              max={3600}
              aria-label="Answer timeout (seconds)"
              value={answerSeconds}
              onChange={(e) => setAnswerSeconds(e.target.value)}
            />
          </label>
          <button type="button" className="primary" disabled={busy} onClick={() => void connect()}>
            {busy ? 'Connecting…' : session ? 'Reconnect' : 'Connect'}
          </button>
          {session && (
            <button type="button" onClick={() => void disconnect()}>
              Disconnect
            </button>
          )}
        </div>
        {kind === 'gateway' && (
          <div className="muted">The console connects to the gateway's HTTP listener with its own token; calls go through the chain and are recorded.</div>
        )}
        <ErrorBanner error={error} />
        <AuthorizationPrompt />
        {session && (
          <div className="session-info" role="status" aria-label="Client session">
            <span className="status connected">Connected</span>
            <b>{session.serverInfo?.name ?? 'server'}</b> {session.serverInfo?.version && <span className="muted">v{session.serverInfo.version}</span>}
            <span className="muted">
              {session.label} · protocol {session.protocolVersion ?? '?'}
            </span>
            <button type="button" className="small" onClick={() => void refresh()}>
              Refresh lists
            </button>
            <SessionTools sessionId={session.sessionId} logging={Boolean((session.capabilities as { logging?: unknown } | undefined)?.logging)} />
          </div>
        )}
        <details className="pg-details">
          <summary>Roots ({(session?.roots ?? roots).length}) · the client answers sampling, elicitation (form and URL) and roots/list</summary>
          <RootsEditor
            roots={session?.roots ?? roots}
            connected={Boolean(session)}
            listed={session ? { count: session.rootsListCount, at: session.rootsListedAt } : undefined}
            onApply={applyRoots}
          />
        </details>
        {session?.instructions && (
          <details className="pg-details">
            <summary>Server instructions</summary>
            <div className="muted instructions">{session.instructions}</div>
          </details>
        )}
      </section>
      {session && <ServerRequests key={session.sessionId} sessionId={session.sessionId} onSessionChanged={refreshSession} onWaitingCount={onWaitingCount} />}
      {session && (
        <NotificationsPane
          key={`notes-${session.sessionId}`}
          sessionId={session.sessionId}
          canSubscribe={Boolean((session.capabilities as { resources?: { subscribe?: boolean } } | undefined)?.resources?.subscribe)}
        />
      )}
      {session && catalog && (
        <Catalog
          sessionId={session.sessionId}
          catalog={catalog}
          throughGateway={session.target.kind === 'gateway'}
          completions={Boolean((session.capabilities as { completions?: unknown } | undefined)?.completions)}
        />
      )}
    </div>
  );
}
