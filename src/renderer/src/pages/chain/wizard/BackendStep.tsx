// Wizard step 1: the backend the gateway fronts: a command, a URL, or a server imported from an MCP
// client's config file (Claude Desktop, Cursor, VS Code), with a connection test.
import { useState } from 'react';
import { useApi } from '../../../api/context';
import type { ParsedClientConfig } from '../../../../../shared/api/models';
import { quoteCommandLine } from '../../../../../shared/shell/shell-words';
import { EndpointFields } from './EndpointFields';
import { backendEntry, endpointComplete, fromImported, type BackendTest, type EndpointDraft } from './entries';

interface Props {
  value: EndpointDraft;
  onChange(d: EndpointDraft): void;
  test: BackendTest;
  onTest(t: BackendTest): void;
}

export function BackendStep({ value, onChange, test, onTest }: Props) {
  const api = useApi();
  const [source, setSource] = useState<'manual' | 'import'>('manual');
  const [clientText, setClientText] = useState('');
  const [parsed, setParsed] = useState<ParsedClientConfig>();
  const [parseError, setParseError] = useState<string>();
  const [testing, setTesting] = useState(false);

  const read = async (text: string) => {
    setParseError(undefined);
    setParsed(undefined);
    try {
      setParsed(await api.call('gateways.parseClientConfig', { text }));
    } catch (err) {
      setParseError(err instanceof Error ? err.message : String(err));
    }
  };

  const runTest = async () => {
    setTesting(true);
    onTest(undefined);
    try {
      onTest(await api.call('chain.testBackend', { entry: backendEntry(value) }));
    } catch (err) {
      onTest({ ok: false, error: err instanceof Error ? err.message : String(err), durationMs: 0 });
    } finally {
      setTesting(false);
    }
  };

  return (
    <div className="wizard-step" data-testid="wizard-backend">
      <p className="muted">The MCP server clients will reach through the gateway. Every request and response passes the interceptor chain on its way.</p>
      <div className="segmented" role="radiogroup" aria-label="Backend source">
        <button type="button" role="radio" aria-checked={source === 'manual'} onClick={() => setSource('manual')}>
          Command or URL
        </button>
        <button type="button" role="radio" aria-checked={source === 'import'} onClick={() => setSource('import')}>
          From a client config
        </button>
      </div>
      {source === 'import' && (
        <div className="import-box">
          <label className="field">
            Paste a claude_desktop_config.json, Cursor mcp.json or VS Code mcp.json / settings.json
            <textarea aria-label="Client config" rows={5} className="mono" value={clientText} onChange={(e) => setClientText(e.target.value)} />
          </label>
          <div className="row">
            <label className="btn">
              Open a file…
              <input
                type="file"
                accept=".json,application/json"
                hidden
                onChange={async (e) => {
                  const f = e.target.files?.[0];
                  if (!f) return;
                  const text = await f.text();
                  setClientText(text);
                  void read(text);
                }}
              />
            </label>
            <button type="button" onClick={() => void read(clientText)} disabled={!clientText.trim()}>
              Read servers
            </button>
          </div>
          {parseError && <div className="banner error">{parseError}</div>}
          {parsed && (
            <div className="list" role="listbox" aria-label="Servers in the client config">
              {parsed.servers.map((s) => (
                <button
                  key={s.name}
                  type="button"
                  role="option"
                  aria-selected={value.name === s.name}
                  className="option"
                  onClick={() => {
                    onChange(fromImported(s));
                    onTest(undefined);
                    setSource('manual');
                  }}
                >
                  <strong>{s.name}</strong> <span className="tag">{s.transport}</span>
                  <span className="mono muted">{s.transport === 'stdio' ? [s.command, ...(s.args ?? [])].join(' ') : s.url}</span>
                </button>
              ))}
              {parsed.servers.length === 0 && <div className="muted">No usable servers in that file.</div>}
              {parsed.skipped.map((s) => (
                <div key={s.name} className="muted small">
                  Skipped {s.name}: {s.reason}
                </div>
              ))}
            </div>
          )}
        </div>
      )}
      {source === 'manual' && (
        <EndpointFields
          idPrefix="Backend"
          allowSse
          value={value}
          onChange={(d) => {
            onChange(d);
            onTest(undefined);
          }}
        />
      )}
      <div className="row">
        <button type="button" onClick={() => void runTest()} disabled={!endpointComplete(value) || testing}>
          {testing ? 'Connecting…' : 'Test connection'}
        </button>
        <TestOutcome test={test} />
      </div>
    </div>
  );
}

function TestOutcome({ test }: { test: BackendTest }) {
  if (!test) return null;
  if (!test.ok)
    return (
      <div className="test-result bad" role="alert" data-testid="backend-test">
        <div>{test.error}</div>
        {test.command && (
          <div>
            Command run: <code aria-label="Command run">{quoteCommandLine(test.command)}</code>
          </div>
        )}
        {test.stderr && (
          <details open>
            <summary>stderr (last {test.stderr.split('\n').length} lines)</summary>
            <pre className="stderr-tail" aria-label="Backend stderr">
              {test.stderr}
            </pre>
          </details>
        )}
      </div>
    );
  return (
    <div className="test-result good" data-testid="backend-test">
      Connected to {test.serverInfo?.name ?? 'the server'}
      {test.serverInfo?.version ? ` ${test.serverInfo.version}` : ''}
      {test.protocolVersion ? ` (protocol ${test.protocolVersion})` : ''}
      {test.toolCount !== undefined ? `: ${test.toolCount} tool${test.toolCount === 1 ? '' : 's'}` : ''} in {Math.round(test.durationMs)} ms
    </div>
  );
}
