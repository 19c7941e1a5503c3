// The fields of one endpoint (a backend or an interceptor server): a command to launch, or a URL.
import type { EndpointDraft } from './entries';

interface Props {
  value: EndpointDraft;
  onChange(next: EndpointDraft): void;
  /** Backends may also be reached over SSE; interceptor servers only over stdio or Streamable HTTP. */
  allowSse: boolean;
  idPrefix: string;
}

export function EndpointFields({ value: d, onChange, allowSse, idPrefix }: Props) {
  const set = (patch: Partial<EndpointDraft>) => onChange({ ...d, ...patch });
  return (
    <div className="endpoint-fields">
      <div className="row">
        <label className="field grow">
          Name
          <input type="text" aria-label={`${idPrefix} name`} value={d.name} onChange={(e) => set({ name: e.target.value })} />
        </label>
        <div className="segmented" role="radiogroup" aria-label={`${idPrefix} kind`}>
          <button type="button" role="radio" aria-checked={d.kind === 'command'} onClick={() => set({ kind: 'command' })}>
            Command
          </button>
          <button type="button" role="radio" aria-checked={d.kind === 'url'} onClick={() => set({ kind: 'url' })}>
            URL
          </button>
        </div>
      </div>
      {d.kind === 'command' ? (
        <>
          <label className="field">
            Command
            <input
              type="text"
              aria-label={`${idPrefix} command`}
              className="mono"
              placeholder="npx, node, uvx, /usr/local/bin/my-server…"
              value={d.command}
              onChange={(e) => set({ command: e.target.value })}
            />
          </label>
          <label className="field">
            Arguments <span className="hint">one per line</span>
            <textarea aria-label={`${idPrefix} arguments`} rows={3} value={d.args} onChange={(e) => set({ args: e.target.value })} />
          </label>
          <details>
            <summary className="muted">Environment and working directory</summary>
            <div className="row">
              <label className="field grow">
                Environment <span className="hint">NAME=value per line</span>
                <textarea aria-label={`${idPrefix} environment`} rows={2} value={d.env} onChange={(e) => set({ env: e.target.value })} />
              </label>
              <label className="field grow">
                Working directory
                <input type="text" aria-label={`${idPrefix} working directory`} value={d.cwd} onChange={(e) => set({ cwd: e.target.value })} />
              </label>
            </div>
          </details>
        </>
      ) : (
        <>
          <div className="row">
            <label className="field grow">
              URL
              <input
                type="text"
                className="mono"
                aria-label={`${idPrefix} URL`}
                placeholder="http://localhost:3001/mcp"
                value={d.url}
                onChange={(e) => set({ url: e.target.value })}
              />
            </label>
            {allowSse && (
              <label className="field">
                Transport
                <select aria-label={`${idPrefix} transport`} value={d.urlTransport} onChange={(e) => set({ urlTransport: e.target.value as 'http' | 'sse' })}>
                  <option value="http">Streamable HTTP</option>
                  <option value="sse">SSE (legacy)</option>
                </select>
              </label>
            )}
          </div>
          <label className="field">
            Headers <span className="hint">Header: value per line</span>
            <textarea aria-label={`${idPrefix} headers`} rows={2} value={d.headers} onChange={(e) => set({ headers: e.target.value })} />
          </label>
        </>
      )}
    </div>
  );
}
