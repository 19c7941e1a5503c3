// The notification when a call pauses at a breakpoint (from any screen): what paused and a link to it.
// It stays until opened or dismissed, or until that pause resolves (decided elsewhere, or timed out).
import { useEffect, useState } from 'react';
import { useApi } from '../api/context';

interface Opened {
  gateway: string;
  id: string;
  method: string;
  target?: string;
}

export function PauseNotifier() {
  const api = useApi();
  const [opened, setOpened] = useState<Opened | null>(null);
  useEffect(
    () =>
      api.onEvent((e) => {
        if (e.type !== 'pauses.changed') return;
        if (e.opened) setOpened({ gateway: e.gateway, ...e.opened });
        else if (e.resolved) setOpened((cur) => (cur?.id === e.resolved!.id ? null : cur));
      }),
    [api],
  );
  if (!opened) return null;
  const onPage = location.hash.startsWith('#/paused');
  return (
    <div className="pause-toast" role="status" aria-label="Call paused">
      <span>
        Paused in <b>{opened.gateway}</b>: <span className="mono">{opened.method}</span>
        {opened.target ? <b> {opened.target}</b> : null}
      </span>
      {!onPage && (
        <a href={`#/paused/${encodeURIComponent(opened.id)}`} onClick={() => setOpened(null)}>
          Open
        </a>
      )}
      <button type="button" className="ghost small" aria-label="Dismiss" onClick={() => setOpened(null)}>
        ✕
      </button>
    </div>
  );
}
