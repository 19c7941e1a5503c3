// A shared PostgreSQL history: checks a connection string before the console (or a gateway) is started on
// it. The store is chosen at start (`--db` / INTERCEPTOR_CONSOLE_DB), so this form tests and says how to
// use it; it never stores the string (it holds a password) and the answer never repeats the password.
import { useState } from 'react';
import { useApi } from '../../api/context';

type Outcome = { ok: true; serverVersion?: string } | { ok: false; error: string };

export function SharedHistoryForm({ current }: { current: string | undefined }) {
  const api = useApi();
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const shared = current?.startsWith('postgres');

  const test = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const r = await api.call('history.testConnection', { url });
      setOutcome(r.ok ? { ok: true, ...(r.serverVersion ? { serverVersion: r.serverVersion } : {}) } : { ok: false, error: r.error ?? 'connection failed' });
    } catch (err) {
      setOutcome({ ok: false, error: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="shared-history">
      <h3>Shared history (PostgreSQL)</h3>
      <p className="muted">
        {shared
          ? 'This console reads the shared PostgreSQL history above, with every gateway that records into it.'
          : 'Gateways on many hosts can record into one PostgreSQL database; a console started on it lists them all.'}
      </p>
      <label className="field">
        Connection string
        <span className="hint">postgres://USER:PASSWORD@HOST:PORT/DATABASE (tested here, not saved)</span>
        <input
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            setOutcome(null);
          }}
        />
      </label>
      <div>
        <button disabled={busy || url.trim() === ''} onClick={() => void test()}>
          {busy ? 'Testing…' : 'Test connection'}
        </button>
      </div>
      {outcome && (
        <p role="status" className={outcome.ok ? 'ok' : 'error'}>
          {outcome.ok
            ? `Connected: PostgreSQL ${outcome.serverVersion ?? ''}. Start the console on it with INTERCEPTOR_CONSOLE_DB=<connection string> npm start (or web --db <connection string>), and each gateway with --db <connection string>.`
            : outcome.error}
        </p>
      )}
    </div>
  );
}
