// Ping and logging/setLevel for the connected server ([desktop-client] item 4): what MCP Inspector offers
// beside the lists. The answer (round trip, the level set) or the server's refusal shows next to them.
import { useState } from 'react';
import { useApiMutation } from '../../../api/context';
import { ErrorBanner } from '../../../components/ErrorBanner';

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

export function SessionTools({ sessionId, logging }: { sessionId: string; logging: boolean }) {
  const ping = useApiMutation('client.ping');
  const setLevel = useApiMutation('client.setLogLevel');
  const [level, setLevelChoice] = useState<(typeof LEVELS)[number]>('info');
  return (
    <span className="session-tools">
      <button type="button" className="small" disabled={ping.isPending} onClick={() => ping.mutate({ sessionId })}>
        Ping
      </button>
      {ping.data && <span className="muted" aria-label="Ping result">{`answered in ${ping.data.roundTripMs} ms`}</span>}
      {logging && (
        <label className="inline">
          Log level
          <select value={level} onChange={(e) => setLevelChoice(e.target.value as (typeof LEVELS)[number])} aria-label="Log level">
            {LEVELS.map((l) => (
              <option key={l}>{l}</option>
            ))}
          </select>
          <button type="button" className="small" disabled={setLevel.isPending} onClick={() => setLevel.mutate({ sessionId, level })}>
            Set
          </button>
          {setLevel.data && <span className="muted" aria-label="Log level set">{`server logs ${setLevel.data.level} and above`}</span>}
        </label>
      )}
      <ErrorBanner error={ping.error ?? setLevel.error} />
    </span>
  );
}
