// The roots the built-in client offers (name + file:// URI). Before connecting they are sent with the
// connection; once connected, Apply replaces them in the core, which sends notifications/roots/list_changed
// so the server asks for them again (the time it last did is shown).
import { useEffect, useState } from 'react';
import type { ClientRoot } from '../../../../../shared/api/models-client-requests';
import { timeOfDay } from '../../../time-format';

export function RootsEditor({
  roots,
  connected,
  listed,
  onApply,
}: {
  roots: ClientRoot[];
  connected: boolean;
  /** How many times the connected server asked for the roots, and when it last did. */
  listed?: { count: number; at?: string };
  onApply: (roots: ClientRoot[]) => Promise<void>;
}) {
  const [draft, setDraft] = useState<ClientRoot[]>(roots);
  const [busy, setBusy] = useState(false);
  useEffect(() => setDraft(roots), [roots]);
  const edit = (i: number, patch: Partial<ClientRoot>) => setDraft((old) => old.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const changed = JSON.stringify(draft) !== JSON.stringify(roots);

  return (
    <div className="roots-editor" role="group" aria-label="Roots">
      {draft.length === 0 && <div className="muted">No roots: the server gets an empty list.</div>}
      {draft.map((r, i) => (
        <div className="row" key={i}>
          <input type="text" aria-label={`Root ${i + 1} name`} placeholder="name" value={r.name ?? ''} onChange={(e) => edit(i, { name: e.target.value })} />
          <input
            type="text"
            className="mono grow"
            aria-label={`Root ${i + 1} URI`}
            placeholder="file:///home/you/project"
            value={r.uri}
            onChange={(e) => edit(i, { uri: e.target.value })}
          />
          <button type="button" className="small" aria-label={`Remove root ${i + 1}`} onClick={() => setDraft((old) => old.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <div className="row">
        <button type="button" className="small" onClick={() => setDraft((old) => [...old, { name: '', uri: 'file:///' }])}>
          Add root
        </button>
        <button
          type="button"
          className="small primary"
          disabled={busy || !changed}
          onClick={() => {
            setBusy(true);
            const clean = draft.map((r) => ({ uri: r.uri.trim(), ...(r.name?.trim() ? { name: r.name.trim() } : {}) }));
            void onApply(clean).finally(() => setBusy(false));
          }}
        >
          {connected ? 'Apply roots' : 'Keep roots'}
        </button>
        <span className="muted" aria-label="Roots status">
          {!connected
            ? 'Sent when connecting.'
            : listed?.at
              ? `The server has read the roots ${listed.count} ${listed.count === 1 ? 'time' : 'times'}, last at ${timeOfDay(listed.at)}.`
              : 'The server has not asked for the roots yet.'}
        </span>
      </div>
    </div>
  );
}
