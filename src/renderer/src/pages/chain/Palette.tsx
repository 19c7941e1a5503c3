// The palette: this gateway's interceptor servers and everything each discovered. Drag an interceptor
// onto the canvas to enable it; those that do not apply to the selected event and phase are dimmed and
// say why on hover. A server that cannot be reached shows its error in place.
import type { ChainDiscovery } from '../../../../shared/api/models-chain';
import { DRAG_MIME } from './canvas/ChainCanvas';
import { skipExplanation, SKIP_LABELS } from './skip-reasons';
import type { OrderedEntry, Phase } from './useChainData';
import { effectiveSettings, labelled, type OverrideSettings } from '../../../../shared/config/effective-settings';

interface Descriptor {
  name: string;
  type: string;
  description?: string;
  hooks?: { events: string[]; phase: Phase }[];
  mode?: string;
  failOpen?: boolean;
  priorityHint?: number | { request?: number; response?: number };
}

interface Props {
  discovery: ChainDiscovery | undefined;
  discovering: boolean;
  error: unknown;
  onRefresh(): void;
  order: OrderedEntry[] | undefined;
  event: string;
  phase: Phase;
  selectedId: string | undefined;
  onSelect(id: string): void;
  /** The draft config's overrides: the palette shows effective settings, each labelled declared or override. */
  overrides: Record<string, OverrideSettings>;
}

export function hooksSummary(hooks: Descriptor['hooks']): string {
  if (!hooks || hooks.length === 0) return 'no hooks';
  return hooks.map((h) => `${h.events.join(', ')} · ${h.phase}`).join('  |  ');
}

export function Palette(props: Props) {
  const byId = new Map((props.order ?? []).map((e) => [e.id, e]));
  return (
    <aside className="chain-palette" aria-label="Interceptor palette">
      <div className="palette-head">
        <h3>Interceptors</h3>
        <button type="button" className="ghost small" onClick={props.onRefresh} disabled={props.discovering} title="Discover again (interceptors/list)">
          {props.discovering ? 'Discovering…' : 'Refresh'}
        </button>
      </div>
      {props.error != null && <div className="banner error">{props.error instanceof Error ? props.error.message : String(props.error)}</div>}
      {!props.discovery && props.discovering && <div className="muted pad">Connecting to the interceptor servers…</div>}
      {props.discovery?.servers.length === 0 && (
        <div className="muted pad">
          This gateway has no interceptor servers. Add one to "staticInterceptors" in the JSON tab, or create a gateway with the wizard.
        </div>
      )}
      {props.discovery?.servers.map((server) => (
        <section key={server.name} className="palette-server" data-testid={`palette-server-${server.name}`}>
          <div className="palette-server-head">
            <span className={`dot ${server.ok ? 'ok' : 'err'}`} aria-hidden />
            <strong>{server.name}</strong>
            <span className="tag">{server.transport}</span>
            {server.failOpen && (
              <span className="tag" title="Fail-open: if this server cannot be reached, requests go on without its interceptors">
                fail-open
              </span>
            )}
            {server.principals && (
              <span className="tag" title="Dynamic: used only for these principals">
                for {server.principals.join(', ')}
              </span>
            )}
          </div>
          <div className="palette-target mono" title={server.target}>
            {server.target}
          </div>
          {!server.ok && (
            <div className="palette-error" role="alert" data-testid={`palette-error-${server.name}`}>
              {server.error}
              {!server.failOpen && <div className="muted">Fail-closed: while it is unreachable every intercepted request is blocked.</div>}
            </div>
          )}
          {server.skipped.map((s, i) => (
            <div key={i} className="palette-error small">
              Skipped descriptor {s.name ? `"${s.name}"` : ''}: {s.reason}
            </div>
          ))}
          <ul className="palette-list">
            {(server.interceptors as Descriptor[]).map((d) => {
              const id = `${server.name}/${d.name}`;
              const planned = byId.get(id);
              const reason = !server.ok ? 'discovery-failed' : planned?.skipped;
              const why = reason
                ? skipExplanation(reason, planned?.skipDetail ?? server.error, props.event, props.phase)
                : `Runs for ${props.event} (${props.phase}).`;
              return (
                <li
                  key={id}
                  className={`palette-item${reason ? ' dimmed' : ''}${props.selectedId === id ? ' selected' : ''}`}
                  data-testid={`palette-item-${id}`}
                  data-applies={reason ? 'false' : 'true'}
                  data-reason={reason ?? ''}
                  draggable
                  tabIndex={0}
                  title={why}
                  onDragStart={(e) => {
                    e.dataTransfer.setData(DRAG_MIME, id);
                    e.dataTransfer.effectAllowed = 'copy';
                  }}
                  onClick={() => props.onSelect(id)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' || e.key === ' ') {
                      e.preventDefault();
                      props.onSelect(id);
                    }
                  }}
                >
                  <div className="palette-item-head">
                    <span className="grip" aria-hidden>
                      ⋮⋮
                    </span>
                    <span className="name">{d.name}</span>
                    <span className={`badge type ${d.type}`}>{d.type}</span>
                  </div>
                  <div className="palette-hooks mono">{hooksSummary(d.hooks)}</div>
                  <EffectivePolicy d={d} override={props.overrides[id]} phase={props.phase} testId={`palette-policy-${id}`} />
                  {d.description && <div className="palette-desc">{d.description}</div>}
                  {reason && <div className="palette-reason">{SKIP_LABELS[reason] ?? reason}</div>}
                  {server.configErrors
                    ?.filter((e) => e.interceptor === d.name)
                    .map((e) => (
                      <div key={e.message} className="palette-error small" role="alert" data-testid={`palette-config-error-${id}`}>
                        Config error: {e.message}
                      </div>
                    ))}
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </aside>
  );
}

/**
 * Its effective mode, failOpen and priority (declared + override, shared/config/effective-settings.ts),
 * shown when either differs from the defaults, each labelled with where it comes from.
 */
function EffectivePolicy({ d, override, phase, testId }: { d: Descriptor; override: OverrideSettings | undefined; phase: Phase; testId: string }) {
  const e = effectiveSettings(d, override);
  const prio = e.priority[phase];
  const showPrio = d.type === 'mutation' && (prio.value !== 0 || prio.source === 'override');
  const showMode = e.mode.value === 'audit' || e.mode.source === 'override';
  const showOpen = e.failOpen.value || e.failOpen.source === 'override';
  if (!showPrio && !showMode && !showOpen) return null;
  return (
    <div className="badges palette-policy" data-testid={testId}>
      {showMode && <span className={`badge mode ${e.mode.value}`}>{labelled(e.mode)}</span>}
      {showOpen && <span className="badge open">{labelled(e.failOpen, e.failOpen.value ? 'fail-open' : 'fail-closed')}</span>}
      {showPrio && <span className="badge prio">{labelled(prio, `priority ${prio.value}`)}</span>}
    </div>
  );
}
