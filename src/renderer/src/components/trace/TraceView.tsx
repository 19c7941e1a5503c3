// NOTE (playground engineer): minimal trace view written for the Playground's dry-run because none
// existed yet; the traffic engineer owns components/trace/ and extends it (Traffic detail uses it too).
// One chain run, step by step, in pass order for its phase (A2): a bar per step on a shared time axis,
// parallel validations side by side, shadow (audit) and simulated badges, the reason for every skip,
// validation messages, and each mutator's before/after diff.
import type { ChainTrace, TraceStep } from '../../../../shared/trace/types';
import { JsonDiff } from '../diff/JsonDiff';
import './trace.css';

const PASS_ORDER = { request: ['mutation', 'validation', 'sink'], response: ['validation', 'sink', 'mutation'] } as const;
const PASS_LABEL = { mutation: 'Mutations (sequential)', validation: 'Validations (parallel)', sink: 'Sinks (parallel)' } as const;
const SKIP_TEXT: Record<string, string> = {
  'event-not-hooked': 'not hooked for this event',
  'other-phase': 'hooked for the other phase only',
  disabled: 'disabled by an override',
  compat: 'outside its compat range',
  'discovery-failed': 'its server failed discovery (fail-open)',
  'after-block': 'not run: an earlier step blocked',
  'chain-timeout': 'not run: the chain deadline passed',
  'validation-failed': 'not run: validation blocked',
};

export function TraceView({ trace, label = 'Chain trace' }: { trace: ChainTrace; label?: string }) {
  const total = Math.max(trace.durationMs, ...trace.steps.map((s) => s.startMs + s.durationMs), 0.001);
  const ran = trace.steps.filter((s) => !s.skipped);
  const skipped = trace.steps.filter((s) => s.skipped);
  return (
    <section className="trace" aria-label={label}>
      <div className={`trace-summary ${trace.decision}`}>
        <strong>{trace.decision === 'block' ? 'Blocked' : 'Allowed'}</strong>
        <span>
          {trace.event} · {trace.phase} phase · {trace.durationMs.toFixed(1)} ms · status {trace.status}
          {trace.modified ? ' · payload modified' : ''}
        </span>
        {trace.blockedBy && (
          <div className="trace-blocked" role="note">
            Blocked by <b>{trace.blockedBy.server}/{trace.blockedBy.interceptor}</b> ({trace.blockedBy.phase}): {trace.blockedBy.reason}
          </div>
        )}
      </div>
      {PASS_ORDER[trace.phase].map((pass) => {
        const steps = ran.filter((s) => s.pass === pass);
        if (steps.length === 0) return null;
        return (
          <div key={pass} className={`trace-pass ${pass}`} role="group" aria-label={PASS_LABEL[pass]}>
            <h3>{PASS_LABEL[pass]}</h3>
            <div className={pass === 'mutation' ? 'trace-steps sequential' : 'trace-steps parallel'}>
              {steps.map((s) => (
                <Step key={s.id} step={s} total={total} />
              ))}
            </div>
          </div>
        );
      })}
      {skipped.length > 0 && (
        <div className="trace-pass skipped" role="group" aria-label="Skipped">
          <h3>Skipped</h3>
          <ul className="trace-skips">
            {skipped.map((s) => (
              <li key={s.id} data-step={s.id}>
                <b>{s.id}</b> <span className="tag">{s.type}</span> {SKIP_TEXT[s.skipped!] ?? s.skipped}
                {s.skipDetail ? ` (${s.skipDetail})` : ''}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function Step({ step, total }: { step: TraceStep; total: number }) {
  const left = (step.startMs / total) * 100;
  const width = Math.max((step.durationMs / total) * 100, 0.8);
  const result = step.result as (Record<string, unknown> & { messages?: { path?: string; message: string; severity: string }[] }) | undefined;
  return (
    <article className={`trace-step outcome-${step.outcome}`} aria-label={`Step ${step.id}`} data-step={step.id}>
      <header>
        <b>{step.name}</b>
        <span className="muted">{step.server}</span>
        <span className={`badge outcome ${step.outcome}`}>{step.outcome}</span>
        {step.shadow && <span className="badge shadow" title="audit mode: computed, never applied or blocking">shadow</span>}
        {step.simulated && <span className="badge simulated" title="failure forced by failure simulation">simulated</span>}
        {step.failOpen && <span className="badge">failOpen</span>}
        {step.pass === 'mutation' && <span className="muted">priority {step.priority}</span>}
        <span className="dur">{step.durationMs.toFixed(1)} ms</span>
      </header>
      <div className="trace-bar" aria-hidden="true">
        <span style={{ left: `${left}%`, width: `${width}%` }} />
      </div>
      {step.error && (
        <div className="trace-error">
          {step.error.kind}: {step.error.message}
        </div>
      )}
      {result?.messages && result.messages.length > 0 && (
        <ul className="trace-messages">
          {result.messages.map((m, i) => (
            <li key={i} className={m.severity}>
              <span className={`badge sev ${m.severity}`}>{m.severity}</span> {m.message} {m.path && <code>{m.path}</code>}
            </li>
          ))}
        </ul>
      )}
      {step.pass === 'mutation' && result?.modified === true && (
        <details open={!step.shadow}>
          <summary>{step.shadow ? 'Shadow change (not applied)' : 'Change'}</summary>
          <JsonDiff before={step.input} after={result.payload} label={`Diff of ${step.id}`} />
        </details>
      )}
      {step.pass === 'sink' && result?.metrics !== undefined && <code className="muted">metrics {JSON.stringify(result.metrics)}</code>}
    </article>
  );
}
