// Paused: the calls paused at breakpoints right now in every running gateway (live: pushed as
// pauses.changed), the selected one in detail with its decisions, and each gateway's breakpoints.
// `#/paused/<id>` selects a pause (the notification links there).
import { useEffect, useState } from 'react';
import type { PausedCall } from '../../../../shared/trace/pauses';
import { useApiQuery } from '../../api/context';
import { ErrorBanner } from '../../components/ErrorBanner';
import { BreakpointsEditor } from './BreakpointsEditor';
import { PausedDetail } from './PausedDetail';
import { POINT_LABEL, useCountdown } from './labels';
import '../traffic/traffic.css';
import './breakpoints.css';

function selectedFromHash(): string | undefined {
  const part = location.hash.replace(/^#\/?/, '').split('/')[1];
  return part ? decodeURIComponent(part) : undefined;
}

export function BreakpointsPage() {
  const paused = useApiQuery('breakpoints.paused', undefined, ['pauses']);
  const [selected, setSelected] = useState<string | undefined>(selectedFromHash);
  useEffect(() => {
    const onHash = () => setSelected(selectedFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const list = (paused.data ?? []) as unknown as PausedCall[];
  const current = list.find((p) => p.id === selected) ?? list[0];

  return (
    <div className="page breakpoints-page">
      <div className="page-head">
        <div>
          <h1>Paused calls</h1>
          <div className="sub">Live calls held at a breakpoint. Each holds only itself; the others keep flowing.</div>
        </div>
      </div>
      <ErrorBanner error={paused.error} />
      <div className="paused-split">
        <section className="paused-list" aria-label="Paused calls">
          {list.length === 0 && <p className="muted">Nothing is paused. Set a breakpoint below, then send a call through the gateway.</p>}
          <ul>
            {list.map((p) => (
              <li key={p.id}>
                <button
                  type="button"
                  className="paused-item"
                  aria-current={current?.id === p.id ? 'true' : undefined}
                  onClick={() => {
                    location.hash = `#/paused/${encodeURIComponent(p.id)}`;
                  }}
                >
                  <span className="mono">{p.method}</span> {p.target && <b>{p.target}</b>}
                  <span className="muted small-text">
                    {p.gateway} · {POINT_LABEL[p.at]}
                    {p.interceptor ? ` ${p.interceptor}` : ''}
                  </span>
                  <Countdown deadline={p.deadline} onTimeout={p.onTimeout} />
                </button>
              </li>
            ))}
          </ul>
        </section>
        {current && <PausedDetail key={current.id} pause={current} />}
      </div>
      <BreakpointsEditor />
    </div>
  );
}

function Countdown({ deadline, onTimeout }: { deadline: string; onTimeout: string }) {
  const left = useCountdown(deadline);
  return (
    <span className="countdown muted small-text">
      {onTimeout === 'block' ? 'blocks' : 'continues'} by itself in {left} s
    </span>
  );
}
