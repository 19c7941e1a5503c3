// Narrowing an interceptor's hooks (A11). The user edits the events per phase; before anything reaches
// the document the chain engine judges it (editor.checkOverrides → validateOverrides): a widening
// attempt is refused with the engine's reason and the document stays as it was.
import { useState } from 'react';
import type { Hook } from './doc/overrides';

interface Props {
  declared: Hook[];
  override: Hook[] | undefined;
  editable: boolean;
  check(hooks: Hook[]): Promise<string | undefined>;
  onApply(hooks: Hook[] | undefined): void;
}

type Row = { phase: Hook['phase']; on: boolean; events: string };

function rowsFrom(declared: Hook[], current: Hook[]): Row[] {
  const phases = [...new Set([...declared, ...current].map((h) => h.phase))];
  return phases.map((phase) => {
    const hook = current.find((h) => h.phase === phase);
    return { phase, on: Boolean(hook), events: (hook?.events ?? declared.find((h) => h.phase === phase)?.events ?? []).join(', ') };
  });
}

export function HooksEditor(p: Props) {
  const [rows, setRows] = useState<Row[]>(() => rowsFrom(p.declared, p.override ?? p.declared));
  const [refusal, setRefusal] = useState<string>();
  const [checking, setChecking] = useState(false);

  const candidate = (): Hook[] =>
    rows
      .filter((r) => r.on)
      .map((r) => ({
        phase: r.phase,
        events: r.events
          .split(',')
          .map((e) => e.trim())
          .filter(Boolean),
      }));

  const apply = async () => {
    setChecking(true);
    setRefusal(undefined);
    try {
      const hooks = candidate();
      const reason = await p.check(hooks);
      if (reason) setRefusal(reason);
      else p.onApply(hooks);
    } catch (err) {
      setRefusal(err instanceof Error ? err.message : String(err));
    } finally {
      setChecking(false);
    }
  };

  return (
    <div className="hooks-editor" role="group" aria-label="Hooks">
      <div className="row-between">
        <h3>Hooks {p.override ? <span className="tag accent">narrowed</span> : <span className="tag">as declared</span>}</h3>
        {p.override && (
          <button
            type="button"
            className="ghost small"
            disabled={!p.editable}
            onClick={() => {
              setRows(rowsFrom(p.declared, p.declared));
              setRefusal(undefined);
              p.onApply(undefined);
            }}
          >
            Reset to declared
          </button>
        )}
      </div>
      {rows.map((r, i) => (
        <div key={r.phase} className="hook-row">
          <label className="check">
            <input
              type="checkbox"
              checked={r.on}
              disabled={!p.editable}
              onChange={(e) => setRows(rows.map((x, k) => (k === i ? { ...x, on: e.target.checked } : x)))}
            />
            {r.phase}
          </label>
          <input
            type="text"
            aria-label={`Hook events (${r.phase})`}
            value={r.events}
            disabled={!p.editable || !r.on}
            placeholder="tools/call, resources/read"
            onChange={(e) => setRows(rows.map((x, k) => (k === i ? { ...x, events: e.target.value } : x)))}
          />
        </div>
      ))}
      <div className="row">
        <button type="button" className="small" disabled={!p.editable || checking} onClick={() => void apply()}>
          {checking ? 'Checking…' : 'Apply hooks'}
        </button>
        <span className="hint">Hooks may only narrow what the interceptor declares.</span>
      </div>
      {refusal && (
        <div className="banner error" role="alert" data-testid="hooks-refusal">
          Refused: {refusal}
        </div>
      )}
    </div>
  );
}
