// Pending requests: what the connected server asked the console (sampling, elicitation), live. Each
// waits here for the user's answer, with the time left before it is answered with a timeout error; one
// the server withdraws disappears. The tool call that caused it stays "Calling…" until it is answered.
import { useCallback, useEffect, useState } from 'react';
import type { PendingServerRequest, ServerRequestAnswer } from '../../../../../shared/api/models-client-requests';
import { useApi } from '../../../api/context';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { ElicitationReply } from './ElicitationReply';
import { SamplingReply } from './SamplingReply';
import { timeOfDay } from '../../../time-format';

export function ServerRequests({
  sessionId,
  onSessionChanged,
  onWaitingCount,
}: {
  sessionId: string;
  onSessionChanged?: () => unknown;
  /** How many requests wait now (the Client tab's badge, seen from the other Playground tabs); 0 once gone. */
  onWaitingCount?: (count: number) => void;
}) {
  const api = useApi();
  const [pending, setPending] = useState<PendingServerRequest[]>([]);
  const [errors, setErrors] = useState<Record<string, unknown>>({});
  const [busy, setBusy] = useState<string>();
  const [now, setNow] = useState(() => Date.now());

  const refresh = useCallback(async () => {
    const r = await api.result('client.pending', { sessionId });
    if (!r.ok) return;
    setNow(Date.now());
    setPending(r.value);
  }, [api, sessionId]);

  useEffect(() => {
    void refresh();
    return api.onEvent((event) => {
      if (event.type !== 'client.requests' || event.sessionId !== sessionId) return;
      void refresh();
      void onSessionChanged?.();
    });
  }, [api, sessionId, refresh, onSessionChanged]);

  useEffect(() => onWaitingCount?.(pending.length), [pending.length, onWaitingCount]);
  // A closed session leaves nothing waiting: its requests were answered with an error by the core.
  useEffect(() => () => onWaitingCount?.(0), [onWaitingCount]);

  // The countdown only ticks while something waits.
  useEffect(() => {
    if (pending.length === 0) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [pending.length]);

  const answer = async (request: PendingServerRequest, value: ServerRequestAnswer) => {
    setBusy(request.id);
    setErrors((old) => ({ ...old, [request.id]: undefined }));
    try {
      await api.call('client.answer', { sessionId, requestId: request.id, answer: value });
      setPending((old) => old.filter((r) => r.id !== request.id));
    } catch (err) {
      setErrors((old) => ({ ...old, [request.id]: err }));
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <section className={`card pg-card server-requests ${pending.length > 0 ? 'waiting' : ''}`} aria-label="Pending requests">
      <h2>
        Pending requests <span className="count">{pending.length}</span>
      </h2>
      {pending.length === 0 && <div className="muted">Nothing waiting. Sampling and elicitation requests from the server appear here to be answered.</div>}
      {pending.map((r) => (
        <article key={r.id} className="server-request" aria-label={`Request ${r.method}`}>
          <header className="row">
            <span className="badge">{r.method === 'sampling/createMessage' ? 'sampling' : 'elicitation'}</span>
            <b className="mono">{r.method}</b>
            <span className="muted">
              received {timeOfDay(r.receivedAt)} · answer within {remaining(r.expiresAt, now)}
            </span>
          </header>
          {r.method === 'sampling/createMessage' ? (
            <SamplingReply request={r} busy={busy === r.id} onAnswer={(a) => void answer(r, a)} />
          ) : (
            <ElicitationReply request={r} busy={busy === r.id} onAnswer={(a) => void answer(r, a)} />
          )}
          <ErrorBanner error={errors[r.id]} />
        </article>
      ))}
    </section>
  );
}

function remaining(expiresAt: string, now: number): string {
  const s = Math.max(0, Math.round((Date.parse(expiresAt) - now) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
