// Settings: theme, data folder, retention (with prune now), redaction at rest, demo gateway. Each section
// saves on its own and says in place what it saved, or why not (useSettingsSave).
import { useEffect, useState } from 'react';
import type { Theme } from '../../../../shared/api/models';
import { useApiQuery } from '../../api/context';
import { ErrorBanner } from '../../components/ErrorBanner';
import { applyTheme } from '../../theme/theme';
import { RetentionForm } from './RetentionForm';
import { SharedHistoryForm } from './SharedHistoryForm';
import { SaveOutcome, useSettingsSave, type SectionSave } from './useSettingsSave';
import './settings.css';

const THEME_NAMES: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' };

export function SettingsPage() {
  const settings = useApiQuery('settings.get', undefined, ['settings']);
  // 'settings': a switch of the history store changes the facts shown here.
  const info = useApiQuery('app.info', undefined, ['settings']);
  const s = settings.data;
  const themeSave = useSettingsSave(
    (saved) => `theme ${THEME_NAMES[saved.theme]}${saved.theme === 'system' ? ' (follows the system’s light or dark mode)' : ''}.`,
  );
  const redactionSave = useSettingsSave((saved) =>
    saved.redactPaths.length === 0
      ? 'no redaction: payloads are recorded as they are.'
      : `${saved.redactPaths.length} redaction path${saved.redactPaths.length === 1 ? '' : 's'} (${saved.redactPaths.join(', ')}), applied to everything recorded from now on.`,
  );
  const demoSave = useSettingsSave((saved) =>
    saved.demoGateway ? 'the demo gateway is created on first start.' : 'no demo gateway is created on first start.',
  );
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
      <ErrorBanner error={settings.error} />
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
                      themeSave.save({ theme: t });
                    }}
                  />
                  {THEME_NAMES[t]}
                </label>
              ))}
            </div>
            <SaveOutcome name="Theme" state={themeSave} />
          </section>

          <section className="card section" aria-labelledby="storage">
            <h2 id="storage">Data</h2>
            <dl className="facts">
              <div className="fact">
                <dt>Data folder</dt>
                <dd className="mono" title={info.data?.dataDir}>
                  {info.data?.dataDir ?? '…'}
                </dd>
              </div>
              <div className="fact">
                <dt>History database</dt>
                <dd className="mono" title={info.data?.dbPath}>
                  {info.data?.dbPath ?? '…'}
                </dd>
              </div>
            </dl>
            <RetentionForm settings={s} />
            <SharedHistoryForm current={info.data?.dbPath} override={info.data?.dbOverride} />
          </section>

          <section className="card section" aria-labelledby="privacy">
            <h2 id="privacy">Redaction at rest</h2>
            <RedactPaths value={s.redactPaths} state={redactionSave} />
          </section>

          <section className="card section" aria-labelledby="demo">
            <h2 id="demo">Demo gateway</h2>
            <label className="check">
              <input
                type="checkbox"
                checked={demoSave.draft?.demoGateway ?? s.demoGateway}
                onChange={(e) => demoSave.save({ demoGateway: e.target.checked })}
              />
              Create the demo gateway on first start (server-everything behind the sample interceptors)
            </label>
            <SaveOutcome name="Demo gateway" state={demoSave} />
          </section>
        </div>
      )}
    </div>
  );
}

function RedactPaths({ value, state }: { value: string[]; state: SectionSave }) {
  const [text, setText] = useState(value.join('\n'));
  useEffect(() => setText(value.join('\n')), [value]);
  return (
    <>
      <label className="field">
        JSON paths to redact before anything is written
        <span className="hint">One per line, relative to each payload: arguments.password, items[*].token, **.apiKey</span>
        <textarea
          rows={3}
          value={text}
          aria-invalid={Boolean(state.error)}
          onChange={(e) => {
            setText(e.target.value);
            state.reset();
          }}
          spellCheck={false}
        />
      </label>
      <div>
        <button
          disabled={state.pending}
          onClick={() =>
            state.save({
              redactPaths: text
                .split('\n')
                .map((l) => l.trim())
                .filter(Boolean),
            })
          }
        >
          Save redaction
        </button>
      </div>
      <SaveOutcome name="Redaction" state={state} />
    </>
  );
}
