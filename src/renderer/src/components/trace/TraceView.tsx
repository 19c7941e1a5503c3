// One chain run as a waterfall (shared by Traffic detail and the Playground dry-run; owned by Traffic).
// Steps appear in the engine's pass order for the phase (A2: request = mutations → validations → sinks,
// response = validations → sinks → mutations), each with its bar on a shared time axis, so the parallel
// validations and sinks show side by side in time under a "parallel" bracket. Shadow (audit) and
// simulated steps are badged, skipped ones listed with their reason, validation messages shown, and each
// mutator's before/after structural diff opened (a shadow mutation's diff says it was not applied).
import type { ChainTrace, TraceStep } from '../../../../shared/trace/types';
import { CodeBlock } from '../CodeBlock';
import { JsonDiff } from '../diff/JsonDiff';
import './trace.css';

const PASS_ORDER = { request: ['mutation', 'validation', 'sink'], response: ['validation', 'sink', 'mutation'] } as const;
const PASS_LABEL = { mutation: 'Mutations (sequential)', validation: 'Validations (parallel)', sink: 'Sinks (parallel)' } as const;
export const SKIP_TEXT: Record<string, string> = {
  'event-not-hooked': 'not hooked for this event',
  'other-phase': 'hooked for the other phase only',
  disabled: 'disabled by an override',
  compat: 'outside its compat range',
  'config-invalid': 'not run: it needs a config (configSchema) and none is set',
  'discovery-failed': 'its server failed discovery (fail-open)',
  'after-block': 'not run: an earlier step blocked',
  'chain-timeout': 'not run: the chain deadline passed',
  'validation-failed': 'not run: validation blocked',
};

type Messages = { path?: string; message: string; severity: string }[];

export function TraceView({ trace, label = 'Chain trace' }: { trace: ChainTrace; label?: string }) {
  const total = Math.max(trace.durationMs, ...trace.steps.map((s) => s.startMs + s.durationMs), 0.001);
  const ran = trace.steps.filter((s) => !s.skipped);
  const skipped = trace.steps.filter((s) => s.skipped);
  const failedDiscovery = trace.discovery.filter((d) => !d.ok);
  return (
    <section className="trace" aria-label={label}>
      <div className={`trace-summary ${trace.decision}`}>
        <strong>{trace.decision === 'block' ? 'Blocked' : 'Allowed'}</strong>
        <span>
          {trace.event} · {trace.phase} phase · {trace.durationMs.toFixed(1)} ms · status {trace.status}
          {trace.modified ? ' · payload modified' : ''}
          {summaryCounts(trace)}
        </span>
        {trace.blockedBy && (
          <div className="trace-blocked" role="note">
            Blocked by{' '}
            <b>
              {trace.blockedBy.server}/{trace.blockedBy.interceptor}
            </b>{' '}
            ({trace.blockedBy.phase}): {trace.blockedBy.reason}
          </div>
        )}
        {trace.deadlineExceeded && (
          <div className="trace-blocked">
            The chain deadline ({trace.timeoutMs} ms) passed: every step it cut off{' '}
            {trace.status === 'timeout' ? 'blocked the chain' : 'was audit or fail-open'}.
          </div>
        )}
      </div>
      {failedDiscovery.map((d) => (
        <div key={d.server} className="trace-error" role="note">
          Server <b>{d.server}</b> failed discovery ({d.failOpen ? 'fail-open: its interceptors were skipped' : 'fail-closed'}): {d.error}
        </div>
      ))}
      <div className="wf-axis" aria-hidden="true">
        {[0, 0.5, 1].map((f) => (
          <i key={f} style={{ left: `${f * 100}%` }}>
            {(total * f).toFixed(total * f >= 10 ? 0 : 1)} ms
          </i>
        ))}
      </div>
      {PASS_ORDER[trace.phase].map((pass) => {
        const steps = ran.filter((s) => s.pass === pass);
        if (steps.length === 0) return null;
        const parallel = pass !== 'mutation';
        return (
          <div key={pass} className={`trace-pass ${pass}${parallel ? ' parallel' : ' sequential'}`} role="group" aria-label={PASS_LABEL[pass]}>
            <h3>
              {PASS_LABEL[pass]}
              {parallel && steps.length > 1 && <span className="wf-parallel-note"> · {steps.length} side by side</span>}
            </h3>
            <div className="wf-lanes">
              {steps.map((s) => (
                <Step key={s.id} step={s} total={total} />
              ))}
            </div>
          </div>
        );
      })}
      {skipped.length > 0 && (
        <div className="trace-pass skipped" role="group" aria-label="Skipped">
          <h3>Skipped ({skipped.length})</h3>
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

function summaryCounts(trace: ChainTrace): string {
  const { errors, warnings, infos } = trace.validationSummary;
  const parts = [
    errors && `${errors} error${errors > 1 ? 's' : ''}`,
    warnings && `${warnings} warning${warnings > 1 ? 's' : ''}`,
    infos && `${infos} info`,
  ].filter(Boolean);
  return parts.length > 0 ? ` · ${parts.join(', ')}` : '';
}

function Step({ step, total }: { step: TraceStep; total: number }) {
  const left = Math.min(99.5, (step.startMs / total) * 100);
  const width = Math.min(100 - left, Math.max((step.durationMs / total) * 100, 0.6));
  const result = step.result as (Record<string, unknown> & { messages?: Messages }) | undefined;
  const modified = step.pass === 'mutation' && result?.modified === true;
  return (
    <article className={`trace-step outcome-${step.outcome}${step.shadow ? ' is-shadow' : ''}`} aria-label={`Step ${step.id}`} data-step={step.id}>
      <header className="wf-row">
        <span className="wf-name" title={`${step.id} · mode ${step.mode}${step.failOpen ? ' · failOpen' : ''} · priority ${step.priority}`}>
          <b>{step.name}</b>
          <span className="muted">{step.server}</span>
        </span>
        <span className="wf-badges">
          <span className={`badge outcome ${step.outcome}`}>{step.outcome}</span>
          {step.shadow && (
            <span className="badge shadow" title="audit mode: computed, never applied or blocking">
              shadow
            </span>
          )}
          {step.simulated && (
            <span className="badge simulated" title="failure forced by failure simulation">
              simulated
            </span>
          )}
          {step.failOpen && <span className="badge">failOpen</span>}
          {step.pass === 'mutation' && <span className="muted wf-prio">p {step.priority}</span>}
        </span>
        <span className="dur">{step.durationMs.toFixed(1)} ms</span>
      </header>
      <span className="trace-bar" aria-hidden="true" title={`starts at ${step.startMs.toFixed(1)} ms, takes ${step.durationMs.toFixed(1)} ms`}>
        <span style={{ left: `${left}%`, width: `${width}%` }} />
      </span>
      {step.error && (
        <div className="trace-error">
          {step.error.kind}: {step.error.message}
        </div>
      )}
      {result?.messages && result.messages.length > 0 && (
        <ul className="trace-messages" aria-label={`Messages of ${step.id}`}>
          {result.messages.map((m, i) => (
            <li key={i} className={m.severity}>
              <span className={`badge sev ${m.severity}`}>{m.severity}</span> {m.message} {m.path && <code>{m.path}</code>}
            </li>
          ))}
        </ul>
      )}
      {modified && (
        <details open className="wf-diff">
          <summary>{step.shadow ? 'Shadow change (computed, not applied)' : 'Change (before → after)'}</summary>
          <JsonDiff before={step.input} after={result.payload} label={`Diff of ${step.id}`} />
        </details>
      )}
      {step.pass === 'sink' && result?.metrics !== undefined && <code className="muted">metrics {JSON.stringify(result.metrics)}</code>}
      {(step.input !== undefined || result !== undefined) && (
        <details className="wf-raw">
          <summary>Input and result</summary>
          {step.input !== undefined && <CodeBlock text={JSON.stringify(step.input, null, 2)} label={`Input of ${step.id}`} />}
          {result !== undefined && <CodeBlock text={JSON.stringify(result, null, 2)} label={`Result of ${step.id}`} />}
        </details>
      )}
    </article>
  );
}
