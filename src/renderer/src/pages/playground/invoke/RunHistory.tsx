// The runs of this Playground session: show any, re-run one with the same input, or compare two
// (their inputs and results as structural diffs side by side).
import { useState } from 'react';
import type { ProcedureInput, ProcedureOutput } from '../../../../../shared/api/procedures';
import { JsonDiff } from '../../../components/diff/JsonDiff';
import { timeOfDay } from '../../../time-format';

export interface InvokeRun {
  n: number;
  at: string;
  input: ProcedureInput<'servers.invoke'>;
  output?: ProcedureOutput<'servers.invoke'>;
  error?: string;
}

export function summarize(run: InvokeRun): string {
  if (run.error) return 'API error';
  const out = run.output;
  if (!out) return '…';
  if (out.error) return `failed: ${out.error.kind}`;
  const r = out.result as Record<string, unknown> | undefined;
  if (r?.type === 'validation') return r.valid ? 'valid' : `invalid (${String(r.severity ?? 'error')})`;
  if (r?.type === 'mutation') return r.modified ? 'mutated' : 'unchanged';
  if (r?.type === 'sink') return r.recorded ? 'recorded' : 'not recorded';
  return 'done';
}

export function RunHistory({ runs, shown, onShow, onRerun }: { runs: InvokeRun[]; shown?: number; onShow(n: number): void; onRerun(run: InvokeRun): void }) {
  const [picked, setPicked] = useState<number[]>([]);
  const toggle = (n: number) => setPicked((p) => (p.includes(n) ? p.filter((x) => x !== n) : [...p.slice(-1), n]));
  const pair = picked.length === 2 ? picked.map((n) => runs.find((r) => r.n === n)).filter((r): r is InvokeRun => Boolean(r)) : [];
  return (
    <div className="run-history">
      <div className="editor-head">
        <h3>Run history</h3>
        <span className="muted">{runs.length === 0 ? 'No runs yet in this session.' : 'Tick two runs to compare them.'}</span>
      </div>
      {runs.length > 0 && (
        <table className="pg-table" aria-label="Runs">
          <thead>
            <tr>
              <th aria-label="Compare" />
              <th>#</th>
              <th>Time</th>
              <th>Interceptor</th>
              <th>Event</th>
              <th>Outcome</th>
              <th>Duration</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.n} className={r.n === shown ? 'selected' : ''}>
                <td>
                  <input type="checkbox" aria-label={`Compare run ${r.n}`} checked={picked.includes(r.n)} onChange={() => toggle(r.n)} />
                </td>
                <td>{r.n}</td>
                <td>{timeOfDay(r.at)}</td>
                <td>
                  {r.input.server}/{r.input.name}
                </td>
                <td>
                  {r.input.event} · {r.input.phase}
                </td>
                <td>{summarize(r)}</td>
                <td>{r.output ? `${r.output.durationMs.toFixed(1)} ms` : ''}</td>
                <td className="actions">
                  <button type="button" className="small" onClick={() => onShow(r.n)} aria-label={`Show run ${r.n}`}>
                    Show
                  </button>
                  <button type="button" className="small" onClick={() => onRerun(r)} aria-label={`Re-run run ${r.n}`}>
                    Re-run
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pair.length === 2 && (
        <div className="compare" aria-label="Run comparison">
          <h3>
            Run #{pair[0]!.n} → run #{pair[1]!.n}
          </h3>
          <div className="compare-grid">
            <div>
              <h4>Input</h4>
              <JsonDiff before={inputOf(pair[0]!)} after={inputOf(pair[1]!)} label="Input differences" />
            </div>
            <div>
              <h4>Result</h4>
              <JsonDiff before={resultOf(pair[0]!)} after={resultOf(pair[1]!)} label="Result differences" />
            </div>
          </div>
          <div className="muted">
            Outcome {summarize(pair[0]!)} → {summarize(pair[1]!)}; duration {pair[0]!.output?.durationMs.toFixed(1) ?? '–'} ms →{' '}
            {pair[1]!.output?.durationMs.toFixed(1) ?? '–'} ms
          </div>
        </div>
      )}
    </div>
  );
}

function inputOf(r: InvokeRun) {
  const { id: _id, ...rest } = r.input;
  return rest;
}

function resultOf(r: InvokeRun) {
  const { durationMs: _d, ...rest } = (r.output?.result as Record<string, unknown> | undefined) ?? {};
  return r.output?.error ? { error: r.output.error } : rest;
}
