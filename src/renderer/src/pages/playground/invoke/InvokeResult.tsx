// One invocation's outcome: the verdict (severity, messages whose JSON paths highlight the payload),
// a mutation as a structural before/after diff, a sink's acknowledgement and metrics, the duration,
// and the raw JSON-RPC request and response exactly as they crossed the wire.
import { CodeBlock } from '../../../components/CodeBlock';
import { JsonDiff } from '../../../components/diff/JsonDiff';
import type { InvokeRun } from './RunHistory';

interface Message {
  path?: string;
  message: string;
  severity: string;
}

export function InvokeResult({ run, onHighlight, highlighted }: { run: InvokeRun; onHighlight(path: string | undefined): void; highlighted?: string }) {
  const out = run.output;
  const r = out?.result as Record<string, unknown> | undefined;
  return (
    <div className="invoke-result" aria-label="Invocation result">
      <div className="result-head">
        <h2>
          Run #{run.n} · {run.input.name}
        </h2>
        <span className="muted">
          {run.input.event} · {run.input.phase}
        </span>
        {out && (
          <span className="duration" aria-label="Duration">
            {out.durationMs.toFixed(1)} ms
          </span>
        )}
      </div>
      {run.error && (
        <div className="banner error" role="alert">
          {run.error}
        </div>
      )}
      {out?.error && (
        <div className="verdict failed" role="status">
          <strong>Invocation failed ({out.error.kind})</strong>
          <div>{out.error.message}</div>
          {out.error.code !== undefined && <div className="muted">JSON-RPC error {out.error.code}</div>}
        </div>
      )}
      {r?.type === 'validation' && <Validation result={r} onHighlight={onHighlight} highlighted={highlighted} />}
      {r?.type === 'mutation' && (
        <div className={`verdict ${r.modified ? 'mutated' : 'ok'}`} role="status">
          <strong>{r.modified ? 'Mutated' : 'Not modified'}</strong>
          {r.modified ? (
            <JsonDiff before={run.input.payload} after={r.payload} label="Mutation diff" />
          ) : (
            <div className="muted">The payload came back unchanged.</div>
          )}
        </div>
      )}
      {r?.type === 'sink' && (
        <div className={`verdict ${r.recorded ? 'ok' : 'failed'}`} role="status">
          <strong>{r.recorded ? 'Recorded' : 'Not recorded'}</strong>
          {r.metrics !== undefined && (
            <table className="pg-table metrics-table" aria-label="Sink metrics">
              <tbody>
                {Object.entries(r.metrics as Record<string, number>).map(([k, v]) => (
                  <tr key={k}>
                    <th>{k}</th>
                    <td>{v}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
      {r?.info !== undefined && <CodeBlock label="Result info" text={JSON.stringify(r.info, null, 2)} />}
      {out?.rpc && (
        <details className="pg-details" open>
          <summary>Raw JSON-RPC</summary>
          <div className="rpc-pair">
            <div>
              <h3>Request</h3>
              <CodeBlock label="Raw JSON-RPC request" text={JSON.stringify(out.rpc.request, null, 2)} />
            </div>
            <div>
              <h3>Response</h3>
              <CodeBlock
                label="Raw JSON-RPC response"
                text={out.rpc.response ? JSON.stringify(out.rpc.response, null, 2) : '(no response: the call timed out or the connection closed)'}
              />
            </div>
          </div>
        </details>
      )}
    </div>
  );
}

function Validation({ result, onHighlight, highlighted }: { result: Record<string, unknown>; onHighlight(p: string | undefined): void; highlighted?: string }) {
  const valid = result.valid === true;
  // A3: valid:false with no or an unknown severity blocks as error.
  const severity = valid ? undefined : ['info', 'warn', 'error'].includes(String(result.severity)) ? String(result.severity) : 'error';
  const messages = (result.messages as Message[] | undefined) ?? [];
  return (
    <div className={`verdict ${valid ? 'ok' : severity === 'error' ? 'blocked' : 'warned'}`} role="status" aria-label="Validation verdict">
      <strong>{valid ? 'Valid' : severity === 'error' ? 'Invalid: would block' : `Invalid (${severity}): would not block`}</strong>
      {severity && <span className={`badge sev ${severity}`}>{severity}</span>}
      {messages.length > 0 && (
        <ul className="messages" aria-label="Validation messages">
          {messages.map((m, i) => (
            <li key={i} className={m.path && m.path === highlighted ? 'active' : ''}>
              <span className={`badge sev ${m.severity}`}>{m.severity}</span>
              <span className="msg">{m.message}</span>
              {m.path && (
                <button
                  type="button"
                  className="small path"
                  title="Highlight in the payload"
                  onClick={() => onHighlight(m.path === highlighted ? undefined : m.path)}
                >
                  {m.path}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {Array.isArray(result.suggestions) && result.suggestions.length > 0 && (
        <CodeBlock label="Suggestions (advisory, never applied)" text={JSON.stringify(result.suggestions, null, 2)} />
      )}
    </div>
  );
}
