// Takes the payload from a recorded execution of the gateway: the request params as the client sent
// them (request phase) or the result as the backend returned it (response phase).
import { useState } from 'react';
import { useApi, useApiQuery } from '../../../api/context';
import { Dialog } from '../../../components/Dialog';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { timeOfDay } from '../../../time-format';

export function HistoryPicker(props: {
  open: boolean;
  gatewayId: string;
  event: string;
  phase: 'request' | 'response';
  onClose(): void;
  onPick(payload: unknown, executionId: string): void;
}) {
  const api = useApi();
  const [error, setError] = useState<unknown>();
  const page = useApiQuery('history.query', { filter: { gateway: props.gatewayId, event: props.event }, limit: 50 }, ['executions'], { enabled: props.open });
  const pick = async (id: string) => {
    setError(undefined);
    try {
      const detail = await api.call('history.detail', { executionId: id });
      const payload = props.phase === 'request' ? detail.requestReceived : detail.responseReceived;
      if (payload === undefined) throw new Error(`Execution ${id} has no recorded ${props.phase === 'request' ? 'request' : 'response'} payload.`);
      props.onPick(payload, id);
    } catch (err) {
      setError(err);
    }
  };
  const items = page.data?.items ?? [];
  return (
    <Dialog title={`Payload from a recorded ${props.event} (${props.phase})`} open={props.open} onClose={props.onClose}>
      <ErrorBanner error={page.error ?? error} />
      {page.isSuccess && items.length === 0 && (
        <div className="muted">No recorded {props.event} on this gateway yet: send some traffic (the Client tab can).</div>
      )}
      <ul className="pick-list" aria-label="Recorded executions">
        {items.map((e) => (
          <li key={e.id}>
            <button type="button" className="ghost" onClick={() => void pick(e.id)}>
              <span className="mono">{timeOfDay(e.startedAt)}</span>
              <span>{e.event}</span>
              <b>{e.target ?? ''}</b>
              <span className={`badge outcome ${e.outcome === 'blocked' ? 'blocked' : e.outcome === 'error' ? 'blocked' : 'allowed'}`}>{e.outcome}</span>
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
