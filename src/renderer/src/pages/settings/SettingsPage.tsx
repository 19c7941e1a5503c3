// Settings: theme, data folder, retention (with prune now), redaction at rest, demo gateway.
import { useEffect, useState } from 'react';
import type { Settings, Theme } from '../../../../shared/api/models';
import { useApiMutation, useApiQuery } from '../../api/context';
import { ErrorBanner } from '../../components/ErrorBanner';
import { applyTheme } from '../../theme/theme';
import { RetentionForm } from './RetentionForm';

export function SettingsPage() {
  const settings = useApiQuery('settings.get', undefined, ['settings']);
  const info = useApiQuery('app.info', undefined, []);
  const update = useApiMutation('settings.update', ['settings']);
  const s = settings.data;
  const save = (patch: Partial<Settings>) => update.mutate(patch);
  // The theme applies at once (optimistically); the saved setting catches up.
  const [theme, setTheme] = useState<Theme | undefined>();
  useEffect(() => setTheme(s?.theme), [s?.theme]);

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Settings</h1>
          <div className="sub">Stored in the data folder; they apply to the app and web mode alike.</div>
        </div>
      </div>
      <ErrorBanner error={settings.error ?? update.error} />
      {s && (
        <div className="settings">
          <section className="card section" aria-labelledby="appearance">
            <h2 id="appearance">Appearance</h2>
            <div className="row" role="radiogroup" aria-label="Theme">
              {(['system', 'light', 'dark'] as Theme[]).map((t) => (
                <label key={t} className="check">
                  <input
                    type="radio"
                    name="theme"
                    checked={(theme ?? s.theme) === t}
                    onChange={() => {
                      setTheme(t);
                      applyTheme(t);
                      save({ theme: t });
                    }}
                  />
                  {t === 'system' ? 'System' : t === 'light' ? 'Light' : 'Dark'}
                </label>
              ))}
            </div>
          </section>

          <section className="card section" aria-labelledby="storage">
            <h2 id="storage">Data</h2>
            <dl className="facts">
              <div className="fact">
                <dt>Data folder</dt>
                <dd className="mono" title={info.data?.dataDir}>{info.data?.dataDir ?? '…'}</dd>
              </div>
              <div className="fact">
                <dt>History database</dt>
                <dd className="mono" title={info.data?.dbPath}>{info.data?.dbPath ?? '…'}</dd>
              </div>
            </dl>
            <RetentionForm settings={s} />
          </section>

          <section className="card section" aria-labelledby="privacy">
            <h2 id="privacy">Redaction at rest</h2>
            <RedactPaths value={s.redactPaths} onSave={(redactPaths) => save({ redactPaths })} />
          </section>

          <section className="card section" aria-labelledby="demo">
            <h2 id="demo">Demo gateway</h2>
            <label className="check">
              <input type="checkbox" checked={s.demoGateway} onChange={(e) => save({ demoGateway: e.target.checked })} />
              Create the demo gateway on first start (server-everything behind the sample interceptors)
            </label>
          </section>
        </div>
      )}
    </div>
  );
}

function RedactPaths({ value, onSave }: { value: string[]; onSave(v: string[]): void }) {
  const [text, setText] = useState(value.join('\n'));
  useEffect(() => setText(value.join('\n')), [value]);
  return (
    <>
      <label className="field">
        JSON paths to redact before anything is written
        <span className="hint">One per line, relative to each payload: arguments.password, items[*].token, **.apiKey</span>
        <textarea rows={3} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} />
      </label>
      <div>
        <button onClick={() => onSave(text.split('\n').map((l) => l.trim()).filter(Boolean))}>Save redaction</button>
      </div>
    </>
  );
}
