// What the connected server sent on its own: log messages, progress of a call, list and resource changes
// ([desktop-client] item 4), newest first; and a resource subscription, whose updates then show here.
import { useState } from 'react';
import { useApiMutation, useApiQuery } from '../../../api/context';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { clockTime } from '../../traffic/format';

export function NotificationsPane({ sessionId, canSubscribe }: { sessionId: string; canSubscribe: boolean }) {
  // Asked every second while the session is open: notifications arrive without a request of ours.
  const notes = useApiQuery('client.notifications', { sessionId }, [], { refetchInterval: 1000 });
  const subscribe = useApiMutation('client.subscribe');
  const [uri, setUri] = useState('');
  const items = [...(notes.data ?? [])].reverse();
  return (
    <section className="card pg-card" aria-label="Notifications">
      <h2>Notifications ({items.length})</h2>
      {canSubscribe && (
        <div className="row">
          <input className="mono" aria-label="Resource to subscribe to" placeholder="resource URI" value={uri} onChange={(e) => setUri(e.target.value)} />
          <button
            type="button"
            className="small"
            disabled={!uri.trim() || subscribe.isPending}
            onClick={() => subscribe.mutate({ sessionId, uri: uri.trim() })}
          >
            Subscribe
          </button>
          {subscribe.data && <span className="muted">subscribed</span>}
        </div>
      )}
      <ErrorBanner error={notes.error ?? subscribe.error} />
      {items.length === 0 ? (
        <div className="muted">Nothing yet: log messages (after Log level → Set), progress of a call and change notices show here.</div>
      ) : (
        <ul className="notification-list" aria-label="Server notifications">
          {items.map((n) => (
            <li key={n.seq} data-method={n.method}>
              <span className="mono muted">{clockTime(n.at)}</span> <b className="mono">{n.method}</b>{' '}
              <span className="mono">{n.params === undefined ? '' : JSON.stringify(n.params)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
