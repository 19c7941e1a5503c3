// Bulk replay of the current filter: the regression check after a chain change. It runs as a job in the
// core; this dialog starts it, follows its progress events, can cancel it, and shows the summary grouped
// by what changed, each pair opening in Compare.
import { useEffect, useState } from 'react';
import type { HistoryFilter } from '../../../../shared/api/models';
import type { BulkGroup, BulkJob, ReplayMode } from '../../../../shared/api/models-traffic';
import { useApi, useApiQuery } from '../../api/context';
import { Dialog } from '../../components/Dialog';
import { ErrorBanner } from '../../components/ErrorBanner';
import { count } from './format';
import { ReplayModeChoice } from './ReplayModeChoice';

export function BulkReplayDialog(props: {
  open: boolean;
  filter: HistoryFilter;
  matching?: { count: number; capped: boolean };
  job: BulkJob | undefined;
  onJob(job: BulkJob | undefined): void;
  onCompare(a: string, b: string): void;
  onClose(): void;
}) {
  const api = useApi();
  const [mode, setMode] = useState<ReplayMode>('backend');
  const [max, setMax] = useState(500);
  const [error, setError] = useState<unknown>(null);
  const { job, onJob } = props;
  // What Start would replay, counted the way the job picks: "4 match" must not start a job that replays 3.
  const plan = useApiQuery('replay.bulkPlan', { filter: props.filter, max }, ['executions', 'replays'], { enabled: props.open && !job });

  // Progress is pushed; the summary is fetched when the job ends.
  useEffect(() => {
    if (!job || job.state !== 'running') return;
    const jobId = job.jobId;
    const refresh = () => void api.call('replay.bulkStatus', { jobId }).then((j) => j.state !== 'running' && onJob(j), setError);
    const off = api.onEvent((event) => {
      if (event.type !== 'replay.progress' || event.jobId !== jobId) return;
      if (event.state === 'running') onJob({ ...job, done: event.done, total: event.total });
      else refresh();
    });
    // A job can end before this subscription exists, and events can be missed across a reconnect.
    refresh();
    const timer = setInterval(refresh, 2000);
    return () => {
      off();
      clearInterval(timer);
    };
  }, [api, job, onJob]);

  const start = () => {
    setError(null);
    api.call('replay.bulkStart', { filter: props.filter, mode, max }).then(onJob, setError);
  };
  const cancel = () => job && api.call('replay.bulkCancel', { jobId: job.jobId }).then(onJob, setError);
  const running = job?.state === 'running';
  const pct = job && job.total > 0 ? Math.round((job.done / job.total) * 100) : 0;
  const filterText = Object.entries(props.filter)
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');

  return (
    <Dialog
      title="Bulk replay"
      open={props.open}
      onClose={props.onClose}
      footer={
        running ? (
          <button type="button" className="danger" onClick={cancel}>
            Cancel replay
          </button>
        ) : (
          <>
            {job && (
              <button type="button" onClick={() => onJob(undefined)}>
                New bulk replay
              </button>
            )}
            <button type="button" onClick={props.onClose}>
              Close
            </button>
            {!job && (
              <button type="button" className="primary" onClick={start} disabled={plan.data?.toReplay === 0}>
                Start replay
              </button>
            )}
          </>
        )
      }
    >
      {!job && (
        <>
          <p>
            Replays executions matching the current filter ({filterText || 'no filter'}
            {props.matching ? `: ${count(props.matching.count, props.matching.capped)} match` : ''}) through each gateway&apos;s <b>current</b> chain, records
            each replay linked to its original, and groups what changed.
          </p>
          <p className="bulk-plan" role="status" aria-label="Bulk replay plan">
            {plan.data ? planText(plan.data) : 'Counting what it would replay…'}
          </p>
          <ReplayModeChoice mode={mode} onChange={setMode} label="Bulk replay mode" chainOnlyText="Chain only" />
          <label className="field">
            At most
            <input type="number" min={1} max={5000} value={max} onChange={(e) => setMax(Math.max(1, Math.min(5000, Number(e.target.value) || 1)))} />
          </label>
        </>
      )}
      {job && (
        <div className="bulk-progress" aria-label="Bulk replay progress">
          <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={job.total} aria-valuenow={job.done}>
            <span style={{ width: `${pct}%` }} />
          </div>
          <div className="muted">
            {job.done} / {job.total} replayed · {job.state === 'running' ? 'running…' : job.state}
            {job.error ? ` · ${job.error}` : ''}
          </div>
        </div>
      )}
      {job && job.state !== 'running' && <Summary groups={job.groups} onCompare={props.onCompare} />}
      <ErrorBanner error={error} />
    </Dialog>
  );
}

function planText(p: { toReplay: number; replaysSkipped: number; more: boolean }): string {
  const skipped =
    p.replaysSkipped === 0
      ? ''
      : ` ${p.replaysSkipped} matching execution${p.replaysSkipped === 1 ? ' is a replay' : 's are replays'} and ${p.replaysSkipped === 1 ? 'is' : 'are'} excluded (a replay is not replayed again).`;
  if (p.toReplay === 0) return `Nothing to replay.${skipped}`;
  return `It will replay ${p.more ? 'the newest ' : ''}${p.toReplay} execution${p.toReplay === 1 ? '' : 's'}${p.more ? ' (raise "At most" for more)' : ''}.${skipped}`;
}

function Summary({ groups, onCompare }: { groups: BulkGroup[]; onCompare(a: string, b: string): void }) {
  const [open, setOpen] = useState<string | undefined>(groups.find((g) => g.kind === 'outcome')?.key);
  if (groups.length === 0) return <p className="muted">Nothing was replayed.</p>;
  return (
    <ul className="bulk-summary" aria-label="Bulk replay summary">
      {groups.map((g) => (
        <li key={g.key} className={`bulk-group ${g.kind}`}>
          <button type="button" className="bulk-group-head" aria-expanded={open === g.key} onClick={() => setOpen(open === g.key ? undefined : g.key)}>
            <b>{g.count}</b> {g.label}
          </button>
          {open === g.key && (
            <ul className="bulk-pairs">
              {g.pairs.map((p) => (
                <li key={p.originalId}>
                  <code>{p.originalId.slice(0, 8)}</code>
                  {p.replayId ? (
                    <>
                      {' → '}
                      <code>{p.replayId.slice(0, 8)}</code>{' '}
                      <button type="button" className="small" onClick={() => onCompare(p.originalId, p.replayId!)}>
                        Compare
                      </button>
                    </>
                  ) : (
                    <span className="err-text"> {p.error}</span>
                  )}
                </li>
              ))}
              {g.count > g.pairs.length && <li className="muted">… and {g.count - g.pairs.length} more</li>}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}
