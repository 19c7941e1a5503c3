// A resource template's form ([desktop-client] item 4): one input per URI variable, the URI they expand
// to, and, when the server offers completions, its suggestions for the variable being typed
// (completion/complete with ref/resource, the other variables sent as context). A click on a suggestion
// fills it in.
import { useEffect, useMemo, useRef, useState } from 'react';
import { expandTemplate, templateVariables } from '../../../../../shared/protocol/uri-template';
import { useApi } from '../../../api/context';
import { ErrorBanner } from '../../../components/ErrorBanner';

/** Typing pauses this long before the server is asked, so each keystroke does not make a request. */
const SUGGEST_DELAY_MS = 250;

interface Suggestions {
  variable: string;
  values: string[];
  hasMore?: boolean;
}

export function ResourceTemplateForm(props: { sessionId: string; uriTemplate: string; completions: boolean; onUri(uri: string): void }) {
  const api = useApi();
  const { sessionId, uriTemplate, completions, onUri } = props;
  const variables = useMemo(() => templateVariables(uriTemplate), [uriTemplate]);
  const [values, setValues] = useState<Record<string, string>>({});
  const [typing, setTyping] = useState<string>();
  const [suggestions, setSuggestions] = useState<Suggestions>();
  const [error, setError] = useState<unknown>();
  // Answers can arrive out of order: only the latest request's answer is shown.
  const latest = useRef(0);

  const filled = useMemo(() => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '')), [values]);
  const uri = expandTemplate(uriTemplate, filled);
  useEffect(() => onUri(uri), [uri, onUri]);

  const typed = typing === undefined ? undefined : (values[typing] ?? '');
  useEffect(() => {
    if (!completions || typing === undefined || typed === undefined) return;
    const ticket = ++latest.current;
    const timer = setTimeout(() => {
      const context = Object.fromEntries(Object.entries(filled).filter(([k]) => k !== typing));
      api
        .call('client.complete', { sessionId, resourceTemplate: uriTemplate, argument: { name: typing, value: typed }, context })
        .then((r) => {
          if (ticket !== latest.current) return;
          setError(undefined);
          setSuggestions({ variable: typing, values: r.values, ...(r.hasMore ? { hasMore: true } : {}) });
        })
        .catch((err: unknown) => {
          if (ticket === latest.current) setError(err);
        });
    }, SUGGEST_DELAY_MS);
    return () => clearTimeout(timer);
    // `filled` changes with every value; the request depends on the variable typed and its text.
  }, [api, completions, sessionId, uriTemplate, typing, typed]);

  const pick = (variable: string, value: string) => {
    setValues((v) => ({ ...v, [variable]: value }));
    setSuggestions(undefined);
    latest.current++;
  };

  return (
    <div aria-label="Template variables">
      {variables.map((name) => (
        <div key={name}>
          <label className="field">
            {name}
            <input
              type="text"
              className="mono"
              aria-label={`Variable ${name}`}
              value={values[name] ?? ''}
              onFocus={() => setTyping(name)}
              onChange={(e) => {
                setTyping(name);
                setValues((v) => ({ ...v, [name]: e.target.value }));
              }}
            />
          </label>
          {suggestions?.variable === name && (
            <span className="row completions" aria-label={`Suggestions for ${name}`}>
              {suggestions.values.length === 0 && <span className="muted">no suggestion</span>}
              {suggestions.values.map((v) => (
                <button key={v} type="button" className="ghost small" onClick={() => pick(name, v)}>
                  {v}
                </button>
              ))}
              {suggestions.hasMore && <span className="muted">more: keep typing</span>}
            </span>
          )}
        </div>
      ))}
      <div className="muted">
        URI <code aria-label="Resource URI">{uri}</code>
      </div>
      <ErrorBanner error={error} />
    </div>
  );
}
