// Wizard step 2: the interceptor servers (a command, a URL, or the bundled samples), each with a
// connection test that connects and discovers (interceptors/list), and what to start with enabled.
import { useState } from 'react';
import { useApi } from '../../../api/context';
import { EndpointFields } from './EndpointFields';
import { emptyEndpoint, endpointComplete, serverEntry, type ServerDraft } from './entries';

interface Props {
  servers: ServerDraft[];
  onChange(next: ServerDraft[]): void;
  startDisabled: boolean;
  onStartDisabled(v: boolean): void;
}

let nextKey = 1;

export function ServersStep({ servers, onChange, startDisabled, onStartDisabled }: Props) {
  const api = useApi();
  const [adding, setAdding] = useState<ServerDraft>();
  const [error, setError] = useState<string>();
  const update = (key: number, patch: Partial<ServerDraft>) => onChange(servers.map((s) => (s.key === key ? { ...s, ...patch } : s)));
  const uniqueName = (base: string) => {
    const names = new Set(servers.map((s) => s.draft.name));
    if (!names.has(base)) return base;
    for (let i = 2; ; i++) if (!names.has(`${base}-${i}`)) return `${base}-${i}`;
  };

  const test = async (s: ServerDraft, all: ServerDraft[] = servers) => {
    const list = all.map((x) => (x.key === s.key ? { ...x, testing: true, test: undefined } : x));
    onChange(list);
    let result;
    try {
      result = await api.call('chain.testServer', { entry: serverEntry(s) });
    } catch (err) {
      result = { ok: false, error: err instanceof Error ? err.message : String(err), interceptors: [], skipped: [], durationMs: 0 };
    }
    onChange(list.map((x) => (x.key === s.key ? { ...x, testing: false, test: result } : x)));
  };

  const addSamples = async () => {
    setError(undefined);
    try {
      const name = uniqueName('samples');
      const preset = await api.call('chain.samplesEntry', { name });
      const s: ServerDraft = { key: nextKey++, preset, draft: { ...emptyEndpoint(name) }, failOpen: false };
      const all = [...servers, s];
      onChange(all);
      void test(s, all);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };

  return (
    <div className="wizard-step" data-testid="wizard-servers">
      <p className="muted">
        Interceptor servers offer the validators, mutators and sinks of the chain. The interceptors of every server are merged into one chain.
      </p>
      {servers.length === 0 && <div className="empty small">No interceptor servers yet: the gateway would relay traffic unchanged.</div>}
      <ul className="wizard-servers">
        {servers.map((s) => (
          <li key={s.key} data-testid={`wizard-server-${s.draft.name}`}>
            <div className="row-between">
              <div>
                <strong>{s.draft.name}</strong> {s.preset && <span className="tag accent">bundled samples</span>}
                <div className="mono muted small">
                  {s.preset
                    ? [String(s.preset.command), ...((s.preset.arguments as string[]) ?? [])].join(' ')
                    : s.draft.kind === 'command'
                      ? s.draft.command
                      : s.draft.url}
                </div>
              </div>
              <div className="row">
                <label className="check small" title="Fail-open: if this server cannot be reached, requests go on without its interceptors">
                  <input type="checkbox" checked={s.failOpen} onChange={(e) => update(s.key, { failOpen: e.target.checked, test: s.test })} />
                  fail-open
                </label>
                <button type="button" className="small" disabled={s.testing} onClick={() => void test(s)}>
                  {s.testing ? 'Testing…' : 'Test'}
                </button>
                <button type="button" className="small ghost danger" onClick={() => onChange(servers.filter((x) => x.key !== s.key))}>
                  Remove
                </button>
              </div>
            </div>
            {s.test && (
              <div className={`test-result ${s.test.ok ? 'good' : 'bad'}`} data-testid={`server-test-${s.draft.name}`} role={s.test.ok ? undefined : 'alert'}>
                {s.test.ok
                  ? `Connected: ${s.test.interceptors.length} interceptor${s.test.interceptors.length === 1 ? '' : 's'} (${s.test.interceptors.map((i) => i.name).join(', ')})`
                  : s.test.error}
              </div>
            )}
          </li>
        ))}
      </ul>
      {error && <div className="banner error">{error}</div>}
      {adding ? (
        <div className="add-server card">
          <EndpointFields idPrefix="Server" allowSse={false} value={adding.draft} onChange={(draft) => setAdding({ ...adding, draft })} />
          <div className="row">
            <button
              type="button"
              className="primary small"
              disabled={!endpointComplete(adding.draft) || servers.some((s) => s.draft.name === adding.draft.name.trim())}
              onClick={() => {
                const all = [...servers, adding];
                onChange(all);
                setAdding(undefined);
                void test(adding, all);
              }}
            >
              Add and test
            </button>
            <button type="button" className="small ghost" onClick={() => setAdding(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <div className="row">
          <button type="button" onClick={() => void addSamples()}>
            Add the bundled samples
          </button>
          <button type="button" onClick={() => setAdding({ key: nextKey++, draft: emptyEndpoint(uniqueName('interceptors')), failOpen: false })}>
            Add a server…
          </button>
        </div>
      )}
      <fieldset className="choice">
        <legend>Start with</legend>
        <label className="check">
          <input type="radio" name="start" checked={startDisabled} onChange={() => onStartDisabled(true)} />
          every interceptor disabled: pick the ones you want on the canvas
        </label>
        <label className="check">
          <input type="radio" name="start" checked={!startDisabled} onChange={() => onStartDisabled(false)} />
          every discovered interceptor enabled, as its server declares it
        </label>
      </fieldset>
    </div>
  );
}
