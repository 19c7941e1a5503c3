// One message: its facts (time, hop, session, id, size), the JSON pretty-printed with Copy, a link to the
// execution it belongs to (Traffic), and Replay for a client's request (through the replay service: the
// recorded execution is re-sent through the gateway's current chain to its backend).
import { useState } from 'react';
import { useApi, useApiQuery } from '../../api/context';
import { CodeBlock } from '../../components/CodeBlock';
import { ErrorBanner } from '../../components/ErrorBanner';
import { clockTime } from '../traffic/format';
import { trafficHref } from '../traffic/route';
import { hop, KIND_LABEL, pretty, size } from './format';

export function MessageDetail({ id, onClose }: { id: string; onClose(): void }) {
  const api = useApi();
  const detail = useApiQuery('messages.detail', { id }, ['messages']);
  const [replay, setReplay] = useState<{ busy: boolean; error: unknown; id?: string }>({ busy: false, error: null });
  const m = detail.data;
  const replayable = m && m.side === 'client' && m.direction === 'in' && m.kind === 'request' && m.executionId && m.method !== 'initialize';
  const runReplay = () => {
    if (!m?.executionId) return;
    setReplay({ busy: true, error: null });
    api.call('replay.run', { executionId: m.executionId, mode: 'backend' }).then(
      (r) => setReplay({ busy: false, error: null, id: r.id }),
      (error: unknown) => setReplay({ busy: false, error }),
    );
  };
  return (
    <section className="detail-pane" aria-label="Message detail">
      <div className="detail-head">
        <strong>{m ? `${m.method ?? '(no method)'} · ${KIND_LABEL[m.kind]}` : 'Message'}</strong>
        <button type="button" className="ghost small" onClick={onClose} aria-label="Close message">
          Close
        </button>
      </div>
      <div className="detail-body">
        <ErrorBanner error={detail.error} />
        {m && (
          <>
            <dl className="msg-facts">
              <dt>Time</dt>
              <dd className="mono">{clockTime(m.at)}</dd>
              <dt>Hop</dt>
              <dd>{hop(m)}</dd>
              <dt>Session</dt>
              <dd className="mono">{m.sessionId ?? 'none (the gateway itself)'}</dd>
              {m.jsonrpcId !== undefined && (
                <>
                  <dt>JSON-RPC id</dt>
                  <dd className="mono">{String(m.jsonrpcId)}</dd>
                </>
              )}
              <dt>Size</dt>
              <dd>
                {size(m.size)}
                {m.truncated && ' (stored cut at 64 KiB)'}
              </dd>
            </dl>
            <div className="detail-actions">
              {m.executionId ? (
                <a className="button small" href={trafficHref({ view: 'list', selected: m.executionId })}>
                  Open execution
                </a>
              ) : (
                <span className="muted">No execution recorded for this message.</span>
              )}
              {replayable && (
                <button
                  type="button"
                  className="small"
                  disabled={replay.busy}
                  onClick={runReplay}
                  title="Re-send this request through the gateway's current chain to its backend"
                >
                  {replay.busy ? 'Replaying…' : 'Replay'}
                </button>
              )}
              {replay.id && (
                <a href={trafficHref({ view: 'list', selected: replay.id })} className="small">
                  Open the replay
                </a>
              )}
            </div>
            <ErrorBanner error={replay.error} />
            <CodeBlock text={pretty(m.body, m.truncated)} label="Message JSON" />
          </>
        )}
      </div>
    </section>
  );
}
