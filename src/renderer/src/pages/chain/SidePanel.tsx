// The side panel for one interceptor: enable/disable, the A11 overrides (mode, failOpen, priority, timeout,
// hooks: narrowing only, checked by the chain engine through the API) and `config`, edited with a form
// generated from its configSchema (raw JSON as the fallback). Every change edits the config document.
import { effectiveSettings, labelled, type DeclaredSettings, type OverrideSettings } from '../../../../shared/config/effective-settings';
import { useEffect, useState } from 'react';
import { SchemaForm } from '../../components/schema-form/SchemaForm';
import type { JsonSchema } from '../../components/schema-form/schema';
import { overrideOf, type Hook, type OverridePatch, type PriorityHint } from './doc/overrides';
import { HooksEditor } from './HooksEditor';
import { hooksSummary } from './Palette';
import { skipExplanation } from './skip-reasons';
import type { OrderedEntry, Phase } from './useChainData';

export interface PanelDescriptor {
  name: string;
  type: string;
  description?: string;
  version?: string;
  hooks: Hook[];
  mode?: string;
  failOpen?: boolean;
  priorityHint?: PriorityHint;
  configSchema?: JsonSchema;
}

interface Props {
  id: string;
  server: string;
  descriptor: PanelDescriptor | undefined;
  serverError?: string;
  planned: OrderedEntry | undefined;
  event: string;
  phase: Phase;
  raw: Record<string, unknown> | undefined;
  /** The draft the canvas shows (last schema-valid config): the effective settings line reads it. */
  shown: Record<string, unknown> | undefined;
  /** The JSON tab has errors: what is shown is the last valid config. */
  stale: boolean;
  editable: boolean;
  onPatch(patch: OverridePatch): void;
  onReset(): void;
  onClose(): void;
  /** Asks the chain engine whether these hooks narrow the declared ones; resolves with the refusal, if any. */
  checkHooks(hooks: Hook[]): Promise<string | undefined>;
}

export function SidePanel(p: Props) {
  const o = overrideOf(p.raw, p.id);
  const d = p.descriptor;
  const enabled = o.enabled !== false;
  const declaredPriority = d?.priorityHint === undefined ? 0 : typeof d.priorityHint === 'number' ? d.priorityHint : (d.priorityHint[p.phase] ?? 0);
  const perPhase = typeof o.priorityHint === 'object' && o.priorityHint !== null;
  return (
    <aside className="chain-panel" aria-label={`Interceptor ${p.id}`} data-testid="chain-panel">
      <div className="panel-head">
        <div className="title">
          <strong>{p.descriptor?.name ?? p.id.slice(p.server.length + 1)}</strong>
          <span className="muted">
            {p.server}
            {d?.version ? ` · v${d.version}` : ''}
          </span>
        </div>
        <button type="button" className="ghost small" aria-label="Close panel" onClick={p.onClose}>
          ✕
        </button>
      </div>
      {d && (
        <div className="panel-section">
          <div className="badges">
            <span className={`badge type ${d.type}`}>{d.type}</span>
          </div>
          {d.description && <p className="muted">{d.description}</p>}
          <div className="mono small">Declared hooks: {hooksSummary(d.hooks)}</div>
          <EffectiveLine d={d} o={overrideOf(p.shown, p.id)} phase={p.phase} stale={p.stale} />
          <div className="panel-status" data-testid="panel-status">
            {p.planned?.skipped
              ? skipExplanation(p.planned.skipped, p.planned.skipDetail, p.event, p.phase)
              : p.planned
                ? `Runs for ${p.event} (${p.phase})${p.planned.pass === 'mutation' ? ` at priority ${p.planned.priority}` : ''}.`
                : ''}
          </div>
        </div>
      )}
      {!d && <div className="banner error">{p.serverError ?? 'Its server did not list this interceptor; the overrides below still apply once it does.'}</div>}
      <fieldset className="panel-section" disabled={!p.editable}>
        <label className="check">
          <input type="checkbox" checked={enabled} onChange={(e) => p.onPatch({ enabled: e.target.checked ? undefined : false })} />
          Enabled
        </label>
        <label className="field">
          Mode
          <select
            aria-label="Mode"
            value={typeof o.mode === 'string' ? o.mode : ''}
            onChange={(e) => p.onPatch({ mode: (e.target.value || undefined) as OverridePatch['mode'] })}
          >
            <option value="">as declared ({d?.mode ?? 'active'})</option>
            <option value="active">active (enforced)</option>
            <option value="audit">audit (shadow)</option>
          </select>
        </label>
        <label className="field">
          Failure handling
          <select
            aria-label="Fail open"
            value={typeof o.failOpen === 'boolean' ? String(o.failOpen) : ''}
            onChange={(e) => p.onPatch({ failOpen: e.target.value === '' ? undefined : e.target.value === 'true' })}
          >
            <option value="">as declared ({d?.failOpen ? 'fail-open' : 'fail-closed'})</option>
            <option value="false">fail-closed: an error or timeout blocks</option>
            <option value="true">fail-open: an error or timeout is skipped</option>
          </select>
        </label>
        <div className="field">
          <div className="row-between">
            <span>Priority {d?.type !== 'mutation' && <span className="hint">(orders mutations only)</span>}</span>
            <label className="check small">
              <input
                type="checkbox"
                checked={perPhase}
                onChange={(e) => p.onPatch({ priorityHint: e.target.checked ? { request: declaredPriority, response: declaredPriority } : undefined })}
              />
              per phase
            </label>
          </div>
          {perPhase ? (
            <div className="row">
              {(['request', 'response'] as const).map((ph) => (
                <NumberField
                  key={ph}
                  label={`Priority (${ph})`}
                  value={(o.priorityHint as { request?: number; response?: number })[ph]}
                  placeholder="0"
                  onCommit={(v) => p.onPatch({ priorityHint: { ...(o.priorityHint as object), [ph]: v } as PriorityHint })}
                />
              ))}
            </div>
          ) : (
            <NumberField
              label="Priority"
              hideLabel
              value={typeof o.priorityHint === 'number' ? o.priorityHint : undefined}
              placeholder={`as declared (${declaredPriority})`}
              onCommit={(v) => p.onPatch({ priorityHint: v })}
            />
          )}
        </div>
        <NumberField
          label="Timeout (ms)"
          value={typeof o.timeoutMs === 'number' ? o.timeoutMs : undefined}
          placeholder="none"
          min={1}
          onCommit={(v) => p.onPatch({ timeoutMs: v })}
        />
      </fieldset>
      {d && (
        <div className="panel-section">
          <HooksEditor
            key={p.id}
            declared={d.hooks}
            override={Array.isArray(o.hooks) ? (o.hooks as Hook[]) : undefined}
            editable={p.editable}
            check={p.checkHooks}
            onApply={(hooks) => p.onPatch({ hooks })}
          />
        </div>
      )}
      <div className="panel-section">
        <h3>Config</h3>
        {d && !d.configSchema && <span className="hint">No configSchema declared: any object is forwarded as is.</span>}
        <SchemaForm
          key={p.id}
          label={`Config of ${p.id}`}
          schema={d?.configSchema ?? { type: 'object', additionalProperties: true }}
          value={o.config ?? {}}
          onChange={(v) => {
            if (!p.editable) return;
            const empty = v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
            p.onPatch({ config: empty ? undefined : (v as Record<string, unknown>) });
          }}
        />
      </div>
      <div className="panel-foot">
        <button type="button" className="danger" disabled={!p.editable || Object.keys(o).length === 0} onClick={p.onReset}>
          Remove all overrides
        </button>
      </div>
    </aside>
  );
}

/** A number input that commits on Enter or blur (one undo step per change, not per keystroke). */
function NumberField(props: {
  label: string;
  hideLabel?: boolean;
  value: number | undefined;
  placeholder: string;
  min?: number;
  onCommit(v: number | undefined): void;
}) {
  const [text, setText] = useState(props.value === undefined ? '' : String(props.value));
  const [error, setError] = useState<string>();
  useEffect(() => setText(props.value === undefined ? '' : String(props.value)), [props.value]);
  const commit = () => {
    const t = text.trim();
    if (t === '') {
      setError(undefined);
      if (props.value !== undefined) props.onCommit(undefined);
      return;
    }
    const n = Number(t);
    if (!Number.isInteger(n) || (props.min !== undefined && n < props.min)) {
      setError(`expected an integer${props.min !== undefined ? ` ≥ ${props.min}` : ''}`);
      return;
    }
    setError(undefined);
    if (n !== props.value) props.onCommit(n);
  };
  return (
    <label className="field">
      {!props.hideLabel && props.label}
      <input
        type="number"
        aria-label={props.label}
        value={text}
        placeholder={props.placeholder}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
      />
      {error && <span className="field-error">{error}</span>}
    </label>
  );
}

/** The settings the gateway runs it with (declared + these overrides), each labelled with its source. */
function EffectiveLine({ d, o, phase, stale }: { d: DeclaredSettings; o: Record<string, unknown>; phase: 'request' | 'response'; stale: boolean }) {
  const e = effectiveSettings(d, o as OverrideSettings);
  return (
    <div className="small" data-testid="panel-effective">
      Effective: {labelled(e.enabled, e.enabled.value ? 'enabled' : 'disabled')} · mode {labelled(e.mode)} ·{' '}
      {labelled(e.failOpen, e.failOpen.value ? 'fail-open' : 'fail-closed')} · {labelled(e.priority[phase], `priority ${e.priority[phase].value}`)}
      {stale && ' · of the last valid config (the JSON tab has errors)'}
    </div>
  );
}
