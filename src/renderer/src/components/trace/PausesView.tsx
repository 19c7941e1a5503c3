// The breakpoint pauses of one execution, in the Traffic waterfall: where it paused, how long, who decided
// what and when (a timeout says so), a block's message, an edit as a before/after diff, a mock answer.
import type { PauseRecord } from '../../../../shared/trace/pauses';
import { CodeBlock } from '../CodeBlock';
import { JsonDiff } from '../diff/JsonDiff';
import { timeOfDay } from '../../time-format';

const AT: Record<string, string> = {
  'request-before-chain': 'request, before the chain',
  'request-after-chain': 'request, after the chain',
  'response-before-chain': 'response, before the chain',
  'response-after-chain': 'response, after the chain',
  'before-interceptor': 'before',
};

const DECISION: Record<string, string> = {
  continue: 'continued',
  edit: 'edited and continued',
  block: 'blocked',
  answer: 'answered with a mock',
  step: 'stepped',
  cancelled: 'cancelled (the call went away)',
};

export function PausesView({ pauses }: { pauses: PauseRecord[] }) {
  return (
    <section className="pauses-view" aria-label="Breakpoint pauses">
      <h3>Breakpoint pauses</h3>
      {pauses.map((p) => (
        <div key={p.id} className="pause-row" aria-label={`Pause at ${p.at}`}>
          <div>
            Paused at <b>{AT[p.at] ?? p.at}</b>
            {p.interceptor ? <span className="mono"> {p.interceptor}</span> : null} (breakpoint <span className="mono">{p.breakpoint}</span>) for{' '}
            {(p.waitedMs / 1000).toFixed(1)} s: <b>{DECISION[p.decision] ?? p.decision}</b> by <b>{p.by}</b> at {timeOfDay(p.resolvedAt)}
            {p.timedOut && <span className="mini simulated">timed out</span>}
          </div>
          {p.message && <div>Message: “{p.message}”</div>}
          {p.decision === 'edit' && <JsonDiff before={p.before} after={p.after} label={`Edit by ${p.by}`} />}
          {p.decision === 'answer' && <CodeBlock label="Mock result" text={JSON.stringify(p.after, null, 2)} />}
        </div>
      ))}
    </section>
  );
}
