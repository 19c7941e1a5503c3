// The detail pane of one execution: why it was blocked (one sentence), the actions (replay, replay the
// chain only, edit & replay, compare, copy, export), and tabs for the waterfall of every interceptor
// step, the payloads as received and as forwarded, the sink events, and the raw JSON-RPC.
import { useState } from 'react';
import { useApiQuery } from '../../../api/context';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { TraceView } from '../../../components/trace/TraceView';
import { PausesView } from '../../../components/trace/PausesView';
import type { ReplayMode } from '../../../../../shared/api/models-traffic';
import { clockTime, duration, OUTCOME_LABEL, TOOL_ERROR_TITLE } from '../format';
import { showsToolError } from '../../../../../shared/trace/tool-error';
import { trafficHref } from '../route';
import { BlockSentence, Payloads, RawRpc, SinkEvents, type ExecutionDetailData } from './sections';
import { messagesHref } from '../../messages/route';

type Tab = 'trace' | 'payloads' | 'sinks' | 'raw';
const TABS: { id: Tab; label: string }[] = [
  { id: 'trace', label: 'Waterfall' },
  { id: 'payloads', label: 'Payloads' },
  { id: 'sinks', label: 'Sink events' },
  { id: 'raw', label: 'Raw JSON-RPC' },
];

export interface DetailActions {
  replay(id: string, mode: ReplayMode): void;
  editReplay(detail: ExecutionDetailData): void;
  compare(a: string, b: string): void;
  exportIds(ids: string[]): void;
  /** Opens "Save as test case" for this execution (its gateway preselected). */
  saveAsTest?(id: string, gatewayName: string): void;
  busy: boolean;
  error: unknown;
  /** An execution marked to compare against ("Compare with marked"). */
  marked?: string;
  mark(id: string | undefined): void;
}

export function ExecutionDetail({ id, actions, onClose }: { id: string; actions: DetailActions; onClose(): void }) {
  const q = useApiQuery('history.detail', { executionId: id }, ['replays']);
  const [tab, setTab] = useState<Tab>('trace');
  const [copied, setCopied] = useState(false);
  const e = q.data;

  return (
    <aside className="detail-pane" aria-label="Execution detail">
      <div className="detail-head">
        <h2>Execution</h2>
        <code className="muted detail-id" title={id}>
          {id}
        </code>
        <button type="button" className="ghost small" aria-label="Close detail" onClick={onClose}>
          ✕
        </button>
      </div>
      <ErrorBanner error={q.error} />
      {e && (
        <div className="detail-body">
          <div className="detail-facts">
            <span className={`pill ${e.outcome}`}>{OUTCOME_LABEL[e.outcome]}</span>
            {/* Derived from the response shown below, like the list's badge (shared/trace/tool-error.ts). */}
            {showsToolError(e) && (
              <span className="mini tool-error" title={TOOL_ERROR_TITLE}>
                tool error
              </span>
            )}
            <span className="mono">{e.event}</span>
            {e.target && <b>{e.target}</b>}
            <span className="muted">
              {e.gateway}
              {e.host ? ` on ${e.host}` : ''} · {clockTime(e.startedAt)} · {duration(e.durationMs)}
              {e.session?.clientInfo ? ` · client ${e.session.clientInfo.name}` : ''}
            </span>
            {e.simulated && <span className="mini simulated">simulated</span>}
          </div>
          {e.replayOf && (
            <p className="replay-link" role="note" aria-label="Replay of">
              {e.replayMode === 'chain-only' ? 'Chain-only replay' : 'Replay'} of <a href={trafficHref({ view: 'list', selected: e.replayOf })}>{e.replayOf}</a>{' '}
              ·{' '}
              <button type="button" className="linkish" onClick={() => actions.compare(e.replayOf!, e.id)}>
                Compare with the original
              </button>
            </p>
          )}
          {e.replayedBy.length > 0 && (
            <p className="replay-link" aria-label="Replayed by">
              Replayed {e.replayedBy.length}×:{' '}
              {e.replayedBy.slice(-3).map((r) => (
                <a key={r} href={trafficHref({ view: 'list', selected: r })} className="mono">
                  {r.slice(0, 8)}
                </a>
              ))}{' '}
              ·{' '}
              <button type="button" className="linkish" onClick={() => actions.compare(e.id, e.replayedBy[e.replayedBy.length - 1]!)}>
                Compare with the latest replay
              </button>
            </p>
          )}
          <BlockSentence e={e} />
          <div className="detail-actions" role="toolbar" aria-label="Execution actions">
            <button
              type="button"
              className="primary"
              disabled={actions.busy}
              onClick={() => actions.replay(e.id, 'backend')}
              title="Re-send through the gateway's current chain to its backend (r)"
            >
              Replay
            </button>
            <button
              type="button"
              disabled={actions.busy}
              onClick={() => actions.replay(e.id, 'chain-only')}
              title="Run the current chain only; the backend is not called"
            >
              Replay chain only
            </button>
            <button type="button" disabled={actions.busy} onClick={() => actions.editReplay(e)}>
              Edit & replay…
            </button>
            {actions.marked && actions.marked !== e.id ? (
              <button type="button" onClick={() => actions.compare(actions.marked!, e.id)}>
                Compare with marked
              </button>
            ) : (
              <button
                type="button"
                aria-pressed={actions.marked === e.id}
                onClick={() => actions.mark(actions.marked === e.id ? undefined : e.id)}
                title="Mark this execution, then open another and compare"
              >
                {actions.marked === e.id ? 'Marked for compare' : 'Mark for compare'}
              </button>
            )}
            <button
              type="button"
              onClick={() =>
                void navigator.clipboard?.writeText(JSON.stringify(e, null, 2)).then(() => {
                  setCopied(true);
                  setTimeout(() => setCopied(false), 1200);
                })
              }
            >
              {copied ? 'Copied' : 'Copy as JSON'}
            </button>
            <button type="button" onClick={() => actions.exportIds([e.id])}>
              Export
            </button>
            {actions.saveAsTest && (
              <button type="button" onClick={() => actions.saveAsTest!(e.id, e.gateway)} title="Keep this call as a chain test case of a gateway">
                Save as test case
              </button>
            )}
            <a className="button" href={messagesHref({ gateway: e.gateway, execution: e.id })} title="Every JSON-RPC message of this call, on each side">
              Messages
            </a>
            {actions.busy && <span className="muted">Replaying…</span>}
          </div>
          <ErrorBanner error={actions.error} />
          <div className="tabs" role="tablist" aria-label="Detail sections">
            {TABS.map((t) => (
              <button key={t.id} type="button" role="tab" aria-selected={tab === t.id} onClick={() => setTab(t.id)}>
                {t.label}
                {t.id === 'sinks' && e.sinkEvents.length > 0 ? ` (${e.sinkEvents.length})` : ''}
              </button>
            ))}
          </div>
          <div role="tabpanel" className="detail-tab">
            {tab === 'trace' && <Waterfall e={e} />}
            {tab === 'payloads' && <Payloads e={e} />}
            {tab === 'sinks' && <SinkEvents e={e} />}
            {tab === 'raw' && <RawRpc e={e} />}
          </div>
        </div>
      )}
    </aside>
  );
}

function Waterfall({ e }: { e: ExecutionDetailData }) {
  const pauses = e.pauses && e.pauses.length > 0 ? <PausesView pauses={e.pauses} /> : null;
  if (!e.requestTrace && !e.responseTrace) {
    if (pauses) return <div className="waterfall">{pauses}</div>;
    return (
      <p className="muted">No interceptor chain ran for this execution ({e.event} is not intercepted by this gateway, or no interceptor server applies).</p>
    );
  }
  return (
    <div className="waterfall">
      {pauses}
      {e.requestTrace && <TraceView trace={e.requestTrace} label="Request phase" />}
      {e.responseTrace && <TraceView trace={e.responseTrace} label="Response phase" />}
      {e.requestTrace && !e.responseTrace && !e.blockedBy && e.replayMode === 'chain-only' && (
        <p className="muted">The response phase did not run: the original has no recorded backend response to run it on.</p>
      )}
    </div>
  );
}
