// Compare two executions side by side (a replay against its original, or any two): their outcomes, the
// interceptor steps that differ, and structural diffs of the payloads.
import { useState } from 'react';
import { useApiQuery } from '../../../api/context';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { CodeBlock } from '../../../components/CodeBlock';
import { JsonDiff } from '../../../components/diff/JsonDiff';
import { compareExecutions, type StepSummary } from '../../../../../shared/traffic/compare';
import { BlockSentence, type ExecutionDetailData } from '../detail/sections';
import { clockTime, duration, OUTCOME_LABEL } from '../format';
import { trafficHref } from '../route';

export function CompareView({ a, b, onBack }: { a: string; b: string; onBack(): void }) {
  const qa = useApiQuery('history.detail', { executionId: a }, ['replays']);
  const qb = useApiQuery('history.detail', { executionId: b }, ['replays']);
  const [allSteps, setAllSteps] = useState(false);
  const ea = qa.data;
  const eb = qb.data;
  const cmp = ea && eb ? compareExecutions(ea, eb) : undefined;
  const steps = cmp ? cmp.steps.filter((s) => allSteps || s.changed) : [];
  const answer = (e: ExecutionDetailData) => (e.errorReturned ? { error: e.errorReturned } : e.responseReturned);

  return (
    <div className="compare" aria-label="Compare executions">
      <div className="compare-head">
        <button type="button" onClick={onBack}>
          ← Back to traffic
        </button>
        <h1>Compare</h1>
        {cmp && (
          <p className="compare-verdict" role="status" aria-label="Difference">
            {cmp.outcomeChanged ? (
              <>
                Outcome <b>{OUTCOME_LABEL[ea!.outcome]}</b> → <b>{OUTCOME_LABEL[eb!.outcome]}</b>
              </>
            ) : (
              <>Same outcome ({OUTCOME_LABEL[ea!.outcome]})</>
            )}
            {' · '}
            {cmp.steps.filter((s) => s.changed).length} step(s) differ · request {cmp.requestChanged ? 'changed' : 'same'} · response{' '}
            {cmp.responseChanged ? 'changed' : 'same'}
          </p>
        )}
      </div>
      <ErrorBanner error={qa.error ?? qb.error} />
      {ea && eb && cmp && (
        <div className="compare-body">
          <div className="compare-cols">
            <Side e={ea} title={eb.replayOf === ea.id ? 'Original' : 'A'} />
            <Side e={eb} title={eb.replayOf === ea.id ? (eb.replayMode === 'chain-only' ? 'Chain-only replay' : 'Replay') : 'B'} />
          </div>

          <section aria-label="Steps that differ">
            <div className="section-title">
              <h3>Interceptor steps {allSteps ? '' : 'that differ'}</h3>
              <label className="check">
                <input type="checkbox" checked={allSteps} onChange={(ev) => setAllSteps(ev.target.checked)} /> show all
              </label>
            </div>
            {steps.length === 0 ? (
              <p className="muted">Every interceptor step had the same outcome.</p>
            ) : (
              <table className="mini-table compare-steps">
                <thead>
                  <tr>
                    <th>Phase</th>
                    <th>Interceptor</th>
                    <th>A</th>
                    <th>B</th>
                  </tr>
                </thead>
                <tbody>
                  {steps.map((s) => (
                    <tr key={`${s.phase}:${s.id}`} className={s.changed ? 'changed' : ''}>
                      <td>{s.phase}</td>
                      <td>{s.id}</td>
                      <td>
                        <StepCell s={s.a} ran={phaseRan(ea, s.phase)} />
                      </td>
                      <td>
                        <StepCell s={s.b} ran={phaseRan(eb, s.phase)} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>

          <section aria-label="Payload differences" className="compare-payloads">
            <h3>Payloads</h3>
            <DiffBlock title="Request as received" a={ea.requestReceived} b={eb.requestReceived} />
            <DiffBlock title="Request as forwarded" a={ea.requestForwarded} b={eb.requestForwarded} />
            <DiffBlock title="Answer returned to the client" a={answer(ea)} b={answer(eb)} />
          </section>
        </div>
      )}
    </div>
  );
}

function Side({ e, title }: { e: ExecutionDetailData; title: string }) {
  return (
    <article className="compare-side" aria-label={title}>
      <header>
        <h2>{title}</h2>
        <span className={`pill ${e.outcome}`}>{OUTCOME_LABEL[e.outcome]}</span>
      </header>
      <div className="muted">
        <span className="mono">{e.event}</span> {e.target} · {e.gateway} · {clockTime(e.startedAt)} · {duration(e.durationMs)}
      </div>
      <a className="mono small-note" href={trafficHref({ view: 'list', selected: e.id })}>
        {e.id}
      </a>
      <BlockSentence e={e} />
    </article>
  );
}

function phaseRan(e: ExecutionDetailData, phase: 'request' | 'response'): boolean {
  return Boolean(phase === 'request' ? e.requestTrace : e.responseTrace);
}

function StepCell({ s, ran }: { s: StepSummary | undefined; ran: boolean }) {
  if (!s) return <span className="muted">{ran ? '(not in this chain)' : '(phase did not run)'}</span>;
  return (
    <span>
      <span className={`badge outcome ${s.outcome}`}>{s.skipped ? `skipped: ${s.skipped}` : s.outcome}</span>
      {s.shadow && <span className="badge shadow">shadow</span>}
      {s.detail && <span className="muted"> {s.detail}</span>}
    </span>
  );
}

function DiffBlock({ title, a, b }: { title: string; a: unknown; b: unknown }) {
  return (
    <div className="diff-block" aria-label={title}>
      <div className="pair-caption">{title}</div>
      {a === undefined && b === undefined ? (
        <div className="muted small-note">(neither has one)</div>
      ) : a === undefined || b === undefined ? (
        <div className="pair-grid">
          <OneSide value={a} side="A" />
          <OneSide value={b} side="B" />
        </div>
      ) : (
        <JsonDiff before={a} after={b} label={`${title} differences`} />
      )}
    </div>
  );
}

function OneSide({ value, side }: { value: unknown; side: string }) {
  if (value === undefined) return <div className="muted small-note">{side}: none (not reached)</div>;
  return <CodeBlock text={JSON.stringify(value, null, 2)} label={`${side} value`} />;
}
