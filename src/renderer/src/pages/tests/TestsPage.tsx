// Tests ([chain-tests]): a gateway's chain test cases (calls saved from Traffic) run through its chain
// with the backend mocked by each case's recorded answer: pass or fail per case, and for a failure what
// differs (outcome, deciding interceptors, payload paths with both values) and which steps went otherwise.
import { useEffect, useState } from 'react';
import type { CaseRunView, SuiteRunView } from '../../../../shared/api/models-chain-tests';
import { useApiMutation, useApiQuery } from '../../api/context';
import { ErrorBanner } from '../../components/ErrorBanner';
import { GatewaySelect } from '../../components/GatewaySelect';
import { pickGateway, useSelectedGateway } from '../../app/app-state';
import '../traffic/traffic.css';
import './tests.css';

const STATUS_LABEL: Record<CaseRunView['status'], string> = { passed: 'passed', failed: 'failed', error: 'could not run' };

export function TestsPage() {
  const gateways = useApiQuery('gateways.list', undefined, ['gateways']);
  const list = gateways.data ?? [];
  // The app-wide gateway choice (the one Chain, Playground, Messages and Paused show).
  const [chosen, setGateway] = useSelectedGateway();
  const gateway = pickGateway(list, chosen)?.id ?? '';
  const cases = useApiQuery('tests.list', { id: gateway }, ['gateways'], { enabled: gateway !== '' });
  const run = useApiMutation('tests.run');
  const remove = useApiMutation('tests.remove');
  const [result, setResult] = useState<SuiteRunView>();
  const [open, setOpen] = useState<string>();
  const [live, setLive] = useState(false);
  useEffect(() => {
    setResult(undefined);
    setOpen(undefined);
  }, [gateway]);

  const runAll = () =>
    run.mutate(
      { id: gateway, live },
      {
        onSuccess: (r) => {
          setResult(r);
          setOpen(r.cases.find((c) => c.status !== 'passed')?.file);
        },
      },
    );
  const byFile = new Map((result?.cases ?? []).map((c) => [c.file, c]));
  const items = cases.data?.cases ?? [];

  return (
    <div className="tests-page" data-state={run.isPending ? 'running' : result ? 'done' : 'idle'}>
      <div className="page-head">
        <h1>Tests</h1>
        <label className="inline">
          Gateway
          <GatewaySelect gateways={list} value={gateway} onChange={setGateway} />
        </label>
        <label className="inline" title="Send each request through the chain to the gateway's real backend instead of answering with the recorded answer">
          <input type="checkbox" checked={live} onChange={(e) => setLive(e.target.checked)} />
          Live backend
        </label>
        <button type="button" className="primary" disabled={!gateway || items.length === 0 || run.isPending} onClick={runAll}>
          {run.isPending ? 'Running…' : 'Run all'}
        </button>
      </div>
      <p className="muted">
        Each case is a call saved from Traffic (&quot;Save as test case&quot;), run through this gateway&apos;s saved chain with the backend mocked by the
        answer recorded with it. Change the chain on the Chain screen, save, and run again; in CI: <code>interceptor-console test --config</code>{' '}
        <code>{cases.data?.dir.replace(/\.tests$/, '.json') ?? '<gateway>.json'}</code> <code>--junit results.xml</code>.
      </p>
      <ErrorBanner error={gateways.error ?? cases.error ?? run.error ?? remove.error} />
      {result && (
        <div className={`tests-summary ${result.failed + result.errors > 0 ? 'bad' : 'good'}`} role="status" aria-label="Test results">
          {result.passed} passed, {result.failed} failed, {result.errors} could not run · {result.durationMs} ms{result.live ? ' · live backend' : ''}
        </div>
      )}
      {gateway && !cases.isLoading && items.length === 0 && (
        // Not the tables' .table-empty: that one covers its positioned table, and here it spread over the
        // whole window, rail included, so no rail link could be clicked from an empty Tests screen.
        <div className="tests-empty">
          No test cases for this gateway yet. In Traffic, open a call (or select several) and choose &quot;Save as test case&quot;. They are kept in{' '}
          <code>{cases.data?.dir}</code>.
        </div>
      )}
      <ul className="case-list" aria-label="Test cases">
        {items.map((c) => {
          const r = byFile.get(c.file);
          const status = r?.status ?? (c.error ? 'error' : undefined);
          return (
            <li key={c.file} className={`case-row${open === c.file ? ' open' : ''}`} data-status={status ?? 'not-run'}>
              <button type="button" className="linkish case-name" onClick={() => setOpen(open === c.file ? undefined : c.file)} aria-expanded={open === c.file}>
                {c.name}
              </button>
              <span className="mono muted">{c.method}</span>
              <span className="muted">expects {c.outcome ?? '?'}</span>
              <span className={`pill ${status === 'passed' ? 'allow' : status ? 'blocked' : ''}`}>{status ? STATUS_LABEL[status] : 'not run'}</span>
              <button
                type="button"
                className="ghost small"
                aria-label={`Delete ${c.name}`}
                onClick={() =>
                  window.confirm(`Delete the test case "${c.name}" (${c.file})?`) &&
                  remove.mutate({ id: gateway, file: c.file }, { onSuccess: () => void cases.refetch() })
                }
              >
                Delete
              </button>
              {c.error && !r && <div className="case-detail error-text">{c.error}</div>}
              {open === c.file && r && <CaseDetail run={r} />}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function json(value: unknown): string {
  return value === undefined ? '—' : JSON.stringify(value);
}

function CaseDetail({ run }: { run: CaseRunView }) {
  if (run.status === 'error') return <div className="case-detail error-text">{run.error}</div>;
  return (
    <div className="case-detail" aria-label={`Result of ${run.name}`}>
      {run.status === 'passed' && <div className="muted">Everything the case expects held ({run.durationMs} ms).</div>}
      {run.failures.map((f, i) => (
        <div key={i} className="failure">
          <b>{f.what}</b>: {f.message}
          {f.differences && (
            <table className="diff-table">
              <thead>
                <tr>
                  <th>Path</th>
                  <th>Expected</th>
                  <th>Got</th>
                </tr>
              </thead>
              <tbody>
                {f.differences.map((d) => (
                  <tr key={d.path}>
                    <td className="mono">{d.path}</td>
                    <td className="mono">{d.kind === 'unexpected' ? '(absent)' : json(d.expected)}</td>
                    <td className="mono">{d.kind === 'missing' ? '(absent)' : json(d.actual)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      ))}
      {run.steps.length > 0 && (
        <div className="steps">
          <b>Steps that went otherwise than when recorded</b>
          <ul>
            {run.steps.map((s) => (
              <li key={`${s.phase} ${s.interceptor}`} className="mono">
                {s.interceptor} ({s.phase}): {s.before ?? '(not run)'} → {s.after ?? '(not run)'}
              </li>
            ))}
          </ul>
        </div>
      )}
      {(run.skipped ?? []).length > 0 && (
        <div className="steps">
          <b>Skipped by the chain</b>
          <ul>
            {run.skipped!.map((s) => (
              <li key={`${s.phase} ${s.interceptor}`} className="mono">
                {s.interceptor} ({s.phase}): {s.reason}
                {s.detail ? ` — ${s.detail}` : ''}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
