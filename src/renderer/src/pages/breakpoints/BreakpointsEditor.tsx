// A gateway's breakpoints: those of its config file (shown; change them in the config, e.g. the Chain
// screen's JSON tab, and they hot-reload) and the live ones this console sets, added with the same
// `method[:target]` form as the CLI's --break (tools/call:echo, tools/*, resources/read:test://*).
import { useState } from 'react';
import { BREAK_POINTS, DEFAULT_PAUSE_TIMEOUT_MS, MAX_PAUSE_TIMEOUT_MS, type BreakpointInput } from '../../../../shared/config/breakpoints';
import { useApiMutation, useApiQuery } from '../../api/context';
import { pickGateway, useSelectedGateway } from '../../app/app-state';
import { ErrorBanner } from '../../components/ErrorBanner';
import { POINT_LABEL } from './labels';

type Row = BreakpointInput & { at?: string[] | string };

function describe(b: Row): string {
  const at = Array.isArray(b.at) ? b.at : b.at ? [b.at] : [];
  return [
    `${b.method ?? '*'}${b.target ? `:${b.target}` : ''}`,
    at.map((p) => POINT_LABEL[p] ?? p).join(' + '),
    b.principal ? `principal ${b.principal}` : '',
    b.when?.blockedBy ? `when ${b.when.blockedBy} blocks` : b.when?.outcome ? `when ${b.when.outcome}` : '',
    b.step ? 'step' : '',
    `${(b.timeoutMs ?? DEFAULT_PAUSE_TIMEOUT_MS) / 1000} s then ${b.onTimeout ?? 'continue'}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

export function BreakpointsEditor() {
  const gateways = useApiQuery('gateways.list', undefined, ['gateways']);
  const attached = useApiQuery('breakpoints.attached', undefined, ['pauses']);
  // The app-wide gateway (the same as Chain's, Playground's and Messages'), or an attached headless one.
  const [chosen, setChosen] = useSelectedGateway();
  const attachedChosen = (attached.data ?? []).some((r) => r.name === chosen) ? chosen : undefined;
  const gateway = attachedChosen ?? pickGateway(gateways.data ?? [], chosen)?.id;
  const view = useApiQuery('breakpoints.get', { id: gateway ?? '' }, ['gateways', 'pauses'], { enabled: gateway !== undefined });
  const set = useApiMutation('breakpoints.set', ['pauses']);
  const [spec, setSpec] = useState('tools/call');
  const [at, setAt] = useState<string>('request-before-chain');
  const [onTimeout, setOnTimeout] = useState<'continue' | 'block'>('continue');
  const [seconds, setSeconds] = useState(DEFAULT_PAUSE_TIMEOUT_MS / 1000);
  const [step, setStep] = useState(false);
  const [blockedBy, setBlockedBy] = useState('');

  const live = (view.data?.live ?? []) as Row[];
  const save = (next: Row[]) => gateway && set.mutate({ id: gateway, live: next as BreakpointInput[] }, { onSuccess: () => void view.refetch() });
  const add = () => {
    const colon = spec.indexOf(':');
    const method = (colon < 0 ? spec : spec.slice(0, colon)).trim();
    const target = colon < 0 ? '' : spec.slice(colon + 1).trim();
    const row: Row = {
      method: method || '*',
      ...(target ? { target } : {}),
      at: [at as (typeof BREAK_POINTS)[number]],
      onTimeout,
      timeoutMs: Math.min(Math.max(1, seconds), MAX_PAUSE_TIMEOUT_MS / 1000) * 1000,
      step,
      ...(blockedBy.trim() ? { when: { blockedBy: blockedBy.trim() } } : {}),
    };
    save([...live, row]);
  };

  return (
    <section className="card breakpoints-editor" aria-label="Breakpoints">
      <div className="card-head">
        <div className="title">
          <strong>Breakpoints</strong>
          <span className="id">Off unless set. Config-file breakpoints hot-reload with the file; live ones last while this console runs.</span>
        </div>
        <div className="actions">
          <label>
            Gateway{' '}
            <select aria-label="Gateway" value={gateway ?? ''} onChange={(e) => setChosen(e.target.value)}>
              {(gateways.data ?? []).map((g) => (
                <option key={g.id} value={g.id}>
                  {g.id} ({g.status})
                </option>
              ))}
              {(attached.data ?? []).map((r) => (
                <option key={`remote-${r.name}`} value={r.name}>
                  {r.name} (attached{r.problem ? `: ${r.problem}` : ''})
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      <div className="card-body">
        <ErrorBanner error={view.error ?? set.error} />
        <table aria-label="Breakpoints of this gateway">
          <thead>
            <tr>
              <th>Source</th>
              <th>Breakpoint</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {((view.data?.config ?? []) as Row[]).map((b, i) => (
              <tr key={`c${i}`}>
                <td className="muted">config file</td>
                <td>{describe(b)}</td>
                <td />
              </tr>
            ))}
            {live.map((b, i) => (
              <tr key={`l${i}`}>
                <td>live</td>
                <td>
                  {describe(b)}
                  {b.enabled === false ? ' · disabled' : ''}
                </td>
                <td>
                  <button
                    type="button"
                    className="ghost small"
                    onClick={() => save(live.map((x, j) => (j === i ? { ...x, enabled: x.enabled === false } : x)))}
                  >
                    {b.enabled === false ? 'Enable' : 'Disable'}
                  </button>
                  <button
                    type="button"
                    className="ghost small danger"
                    aria-label={`Remove ${describe(b)}`}
                    onClick={() => save(live.filter((_, j) => j !== i))}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="breakpoint-form" role="group" aria-label="New breakpoint">
          <label>
            Method[:target]
            <input type="text" aria-label="Method and target" value={spec} onChange={(e) => setSpec(e.target.value)} placeholder="tools/call:echo" />
          </label>
          <label>
            Point
            <select aria-label="Point" value={at} onChange={(e) => setAt(e.target.value)}>
              {BREAK_POINTS.map((p) => (
                <option key={p} value={p}>
                  {POINT_LABEL[p]}
                </option>
              ))}
            </select>
          </label>
          <label>
            When blocked by
            <input
              type="text"
              aria-label="When blocked by"
              value={blockedBy}
              onChange={(e) => setBlockedBy(e.target.value)}
              placeholder="pii-validator (after-chain)"
            />
          </label>
          <label>
            Timeout (s)
            <input
              type="number"
              aria-label="Timeout seconds"
              min={1}
              max={MAX_PAUSE_TIMEOUT_MS / 1000}
              value={seconds}
              onChange={(e) => setSeconds(Number(e.target.value))}
            />
          </label>
          <label>
            Then
            <select aria-label="On timeout" value={onTimeout} onChange={(e) => setOnTimeout(e.target.value as 'continue' | 'block')}>
              <option value="continue">continue</option>
              <option value="block">block</option>
            </select>
          </label>
          <label>
            <span>
              <input type="checkbox" aria-label="Step" checked={step} onChange={(e) => setStep(e.target.checked)} /> step each interceptor
            </span>
          </label>
          <button type="button" className="primary" disabled={!gateway || set.isPending} onClick={add}>
            Add breakpoint
          </button>
        </div>
        <AttachForm />
      </div>
    </section>
  );
}

/** Attach to a gateway of another process (a headless one) through its control endpoint and token. */
function AttachForm() {
  const attach = useApiMutation('breakpoints.attach', ['pauses', 'gateways']);
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  return (
    <div className="breakpoint-form" role="group" aria-label="Attach a headless gateway">
      <label>
        Name
        <input type="text" aria-label="Attached gateway name" value={name} onChange={(e) => setName(e.target.value)} placeholder="prod-gw" />
      </label>
      <label>
        Control endpoint
        <input type="text" aria-label="Control endpoint URL" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://127.0.0.1:7411" />
      </label>
      <label>
        Token
        <input type="password" aria-label="Control token" value={token} onChange={(e) => setToken(e.target.value)} />
      </label>
      <button
        type="button"
        disabled={attach.isPending || !name || !url || !token}
        onClick={() => attach.mutate({ name, url, token }, { onSuccess: () => setToken('') })}
      >
        Attach
      </button>
      <ErrorBanner error={attach.error} />
    </div>
  );
}
