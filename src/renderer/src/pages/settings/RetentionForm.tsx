// Retention: keep at most N executions and/or D days. Saving a stricter policy deletes history at once,
// so Save first asks the store how many executions it would delete and asks before doing it; what was
// deleted is reported here. A value that is not a whole number of 1 or more is an error, never "no limit".
import { useState } from 'react';
import type { Settings } from '../../../../shared/api/models';
import { useApi, useApiMutation } from '../../api/context';
import { Dialog } from '../../components/Dialog';
import { ErrorBanner } from '../../components/ErrorBanner';

type Limit = { value: number | null } | { error: string };

/** Empty is "no limit"; anything else must be a whole number ≥ 1. */
export function parseLimit(text: string): Limit {
  const t = text.trim();
  if (t === '') return { value: null };
  const n = Number(t);
  if (!Number.isInteger(n) || n < 1) return { error: `"${t}" is not a whole number of 1 or more (leave it empty for no limit)` };
  return { value: n };
}

/** What a saved retention keeps, in words: "at most 2 executions, for 30 days". */
export function describeRetention(r: { maxExecutions: number | null; maxAgeDays: number | null }): string {
  const count = r.maxExecutions ? `at most ${r.maxExecutions} execution${r.maxExecutions === 1 ? '' : 's'}` : 'any number of executions';
  const age = r.maxAgeDays ? `for ${r.maxAgeDays} day${r.maxAgeDays === 1 ? '' : 's'}` : 'with no age limit';
  return `${count}, ${age}`;
}

function policyOf(r: { maxExecutions: number | null; maxAgeDays: number | null }) {
  return { ...(r.maxExecutions ? { maxExecutions: r.maxExecutions } : {}), ...(r.maxAgeDays ? { maxAgeDays: r.maxAgeDays } : {}) };
}

export function RetentionForm({ settings }: { settings: Settings }) {
  const api = useApi();
  const update = useApiMutation('settings.update', ['settings', 'executions']);
  const prune = useApiMutation('history.prune', ['executions']);
  const [maxExecutions, setMaxExecutions] = useState(String(settings.retention.maxExecutions ?? ''));
  const [maxAgeDays, setMaxAgeDays] = useState(String(settings.retention.maxAgeDays ?? ''));
  const [confirm, setConfirm] = useState<{ wouldDelete: number; total: number } | null>(null);
  const [previewError, setPreviewError] = useState<unknown>(null);
  const [report, setReport] = useState<string | null>(null);

  const count = parseLimit(maxExecutions);
  const age = parseLimit(maxAgeDays);
  const errors = [count, age].flatMap((l) => ('error' in l ? [l.error] : []));
  const retention = 'value' in count && 'value' in age ? { maxExecutions: count.value, maxAgeDays: age.value } : null;

  const commit = (r: { maxExecutions: number | null; maxAgeDays: number | null }) => {
    setConfirm(null);
    update.mutate(
      { retention: r },
      {
        onSuccess: (saved) =>
          setReport(
            `${saved.pruned ? `Retention saved; deleted ${saved.pruned} executions.` : 'Retention saved; nothing was deleted.'} Now keeping ${describeRetention(saved.retention)}.`,
          ),
      },
    );
  };

  const onSave = async () => {
    if (!retention) return;
    setReport(null);
    setPreviewError(null);
    const policy = policyOf(retention);
    if (Object.keys(policy).length === 0) return commit(retention); // no limit deletes nothing
    try {
      const preview = await api.call('history.prunePreview', policy);
      if (preview.wouldDelete === 0) commit(retention);
      else setConfirm(preview);
    } catch (err) {
      setPreviewError(err);
    }
  };

  return (
    <>
      <div className="row">
        <label className="field">
          Keep at most (executions)
          <input
            type="number"
            min={1}
            step={1}
            value={maxExecutions}
            aria-invalid={'error' in count}
            onChange={(e) => setMaxExecutions(e.target.value)}
            placeholder="no limit"
          />
        </label>
        <label className="field">
          Keep for (days)
          <input
            type="number"
            min={1}
            step={1}
            value={maxAgeDays}
            aria-invalid={'error' in age}
            onChange={(e) => setMaxAgeDays(e.target.value)}
            placeholder="no limit"
          />
        </label>
        <button disabled={!retention || update.isPending} onClick={() => void onSave()}>
          Save retention
        </button>
        <button
          disabled={!retention || Object.keys(policyOf(retention)).length === 0}
          onClick={() => {
            setReport(null);
            prune.mutate(policyOf(retention!), { onSuccess: (r) => setReport(`Deleted ${r.deleted} executions.`) });
          }}
        >
          Prune now
        </button>
      </div>
      {errors.length > 0 && (
        <div className="banner error" role="alert" aria-label="Retention errors">
          {errors.join('\n')}
        </div>
      )}
      {report && (
        <div className="save-note" role="status" aria-label="Retention result">
          {report}
        </div>
      )}
      <ErrorBanner error={update.error ?? prune.error ?? previewError} />
      <Dialog
        title="Delete history now?"
        open={confirm !== null}
        onClose={() => setConfirm(null)}
        footer={
          <>
            <button onClick={() => setConfirm(null)}>Cancel</button>
            <button className="danger" onClick={() => retention && commit(retention)}>
              Save and delete {confirm?.wouldDelete}
            </button>
          </>
        }
      >
        <p>
          This retention deletes <strong>{confirm?.wouldDelete}</strong> of the {confirm?.total} recorded executions now (with their steps and sink events), and
          keeps deleting what falls outside it. This cannot be undone; export them from Traffic first to keep a copy.
        </p>
      </Dialog>
    </>
  );
}
