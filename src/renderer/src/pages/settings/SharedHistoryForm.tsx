// A shared PostgreSQL history: tests a connection string and switches the console to it (or back to the
// local SQLite file) while it runs; the gateways it runs keep recording, into the store now in use. The
// main process saves the choice without the password (that goes into an owner-only file); this form
// keeps the string only while it is typed, and no answer repeats the password. A history named at start
// (--db / INTERCEPTOR_CONSOLE_DB) wins, and the form says so instead of offering the switch.
import { useState } from 'react';
import { useApi } from '../../api/context';

type Outcome = { ok: true; serverVersion?: string } | { ok: true; switchedTo: string } | { ok: false; error: string };

export function SharedHistoryForm({ current, override }: { current: string | undefined; override: string | undefined }) {
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

  const switchTo = async (target: { kind: 'sqlite' } | { kind: 'postgres'; url: string }) => {
    setBusy(true);
    setOutcome(null);
    try {
      const r = await api.call('history.switchStore', target);
      setOutcome({ ok: true, switchedTo: r.dbPath });
      setUrl('');
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
        <span className="hint">
          postgres://USER:PASSWORD@HOST:PORT/DATABASE (the password is kept in an owner-only file in the data folder, never in settings.json)
        </span>
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
          {busy ? 'Working…' : 'Test connection'}
        </button>{' '}
        <button disabled={busy || url.trim() === '' || override !== undefined} onClick={() => void switchTo({ kind: 'postgres', url })}>
          Use this history
        </button>{' '}
        {shared && (
          <button disabled={busy || override !== undefined} onClick={() => void switchTo({ kind: 'sqlite' })}>
            Switch back to the local SQLite file
          </button>
        )}
      </div>
      {override !== undefined && (
        <p className="muted" data-testid="history-override">
          This console&apos;s history was named at start by {override}, which wins over Settings: start it without {override} to choose the history here.
        </p>
      )}
      {outcome && (
        <p role="status" className={outcome.ok ? 'ok' : 'error'}>
          {!outcome.ok
            ? outcome.error
            : 'switchedTo' in outcome
              ? `Switched: this console now uses ${outcome.switchedTo}, and the gateways it runs record there. Saved for the next start.`
              : `Connected: PostgreSQL ${outcome.serverVersion ?? ''}. Use this history switches this console to it; start each gateway with --db <connection string without password> --db-password-file FILE (or PGPASSWORD).`}
        </p>
      )}
    </div>
  );
}
