// Parts of an execution's detail: why it was blocked, its payloads as received and as forwarded, its
// sink events, and the JSON-RPC messages of the exchange.
import type { ExecutionDetail } from '../../../../../shared/api/models-execution';
import { CodeBlock } from '../../../components/CodeBlock';
import { JsonDiff } from '../../../components/diff/JsonDiff';
import { stableKey } from '../../../components/diff/json-diff';
import { clockTime, pretty } from '../format';

/** What history.detail returns; named apart from the ExecutionDetail component that shows it. */
export type ExecutionDetailData = ExecutionDetail;

/** One sentence: which interceptor blocked it, in which phase, and why. */
export function BlockSentence({ e }: { e: ExecutionDetailData }) {
  const b = e.blockedBy;
  if (!b) return null;
  const why = b.messages.length > 0 ? b.messages.join('; ') : b.reason;
  const who = b.interceptor === '(discovery)' ? `interceptor server ${b.server}` : `${b.server}/${b.interceptor}`;
  return (
    <p className="block-sentence" role="note" aria-label="Why it was blocked">
      Blocked by <b>{who}</b> in the <b>{b.phase}</b> phase: {why.replace(/\.$/, '')}.
    </p>
  );
}

function Pair({ title, first, second, firstLabel, secondLabel }: { title: string; first: unknown; second: unknown; firstLabel: string; secondLabel: string }) {
  const same = second === undefined || stableKey(first) === stableKey(second);
  return (
    <section className="payload-pair" aria-label={title}>
      <h3>{title}</h3>
      <div className="pair-grid">
        <div>
          <div className="pair-caption">{firstLabel}</div>
          <CodeBlock text={pretty(first)} label={`${title}: ${firstLabel}`} />
        </div>
        <div>
          <div className="pair-caption">{secondLabel}</div>
          {second === undefined ? (
            <div className="muted small-note">(not reached)</div>
          ) : same ? (
            <div className="muted small-note">Identical to what was received.</div>
          ) : (
            <>
              <JsonDiff before={first} after={second} label={`${title}: changes`} />
              <CodeBlock text={pretty(second)} label={`${title}: ${secondLabel}`} />
            </>
          )}
        </div>
      </div>
    </section>
  );
}

export function Payloads({ e }: { e: ExecutionDetailData }) {
  const returned = e.errorReturned ? { error: e.errorReturned } : e.responseReturned;
  return (
    <div className="payloads">
      <Pair
        title="Request"
        first={e.requestReceived}
        second={e.requestForwarded}
        firstLabel="As received from the client"
        secondLabel="As forwarded to the backend"
      />
      {e.responseReceived !== undefined ? (
        <Pair title="Response" first={e.responseReceived} second={returned} firstLabel="As received from the backend" secondLabel="As returned to the client" />
      ) : (
        <section className="payload-pair" aria-label="Response">
          <h3>Response</h3>
          <div className="pair-caption">Returned to the client (the backend was not reached or failed)</div>
          <CodeBlock text={pretty(returned)} label="Response: as returned to the client" />
        </section>
      )}
    </div>
  );
}

export function SinkEvents({ e }: { e: ExecutionDetailData }) {
  if (e.sinkEvents.length === 0) return <p className="muted">No sink ran for this execution.</p>;
  return (
    <table className="mini-table" aria-label="Sink events">
      <thead>
        <tr>
          <th>Interceptor</th>
          <th>Phase</th>
          <th>Recorded</th>
          <th>Metrics</th>
          <th>At</th>
        </tr>
      </thead>
      <tbody>
        {e.sinkEvents.map((s, i) => (
          <tr key={i}>
            <td>{s.interceptor}</td>
            <td>{s.phase}</td>
            <td>{s.recorded ? 'yes' : <span className="err-text">no{s.error ? `: ${errorText(s.error)}` : ''}</span>}</td>
            <td className="mono">
              {s.metrics
                ? Object.entries(s.metrics)
                    .map(([k, v]) => `${k}=${v}`)
                    .join(' ')
                : ''}
            </td>
            <td className="mono">{clockTime(s.at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function errorText(err: unknown): string {
  return err && typeof err === 'object' && 'message' in err ? String((err as { message: unknown }).message) : JSON.stringify(err);
}

/** The exchange's messages, rebuilt from the record (ids and bodies exactly as recorded). */
export function rawMessages(e: ExecutionDetailData): { title: string; message: unknown }[] {
  const id = e.jsonrpcId ?? null;
  const out: { title: string; message: unknown }[] = [
    { title: 'Client → gateway', message: { jsonrpc: '2.0', id, method: e.event, params: e.requestReceived } },
  ];
  if (e.requestForwarded !== undefined && e.replayMode !== 'chain-only') {
    out.push({ title: 'Gateway → backend', message: { jsonrpc: '2.0', id, method: e.event, params: e.requestForwarded } });
  }
  if (e.responseReceived !== undefined) {
    out.push({
      title: e.replayMode === 'chain-only' ? 'Backend → gateway (recorded for the original)' : 'Backend → gateway',
      message: { jsonrpc: '2.0', id, result: e.responseReceived },
    });
  }
  if (e.errorReturned) out.push({ title: 'Gateway → client', message: { jsonrpc: '2.0', id, error: e.errorReturned } });
  else if (e.responseReturned !== undefined) out.push({ title: 'Gateway → client', message: { jsonrpc: '2.0', id, result: e.responseReturned } });
  return out;
}

export function RawRpc({ e }: { e: ExecutionDetailData }) {
  return (
    <div className="raw-rpc">
      {rawMessages(e).map((m) => (
        <section key={m.title} aria-label={m.title}>
          <div className="pair-caption">{m.title}</div>
          <CodeBlock text={JSON.stringify(m.message, null, 2)} label={`Raw ${m.title}`} />
        </section>
      ))}
    </div>
  );
}
