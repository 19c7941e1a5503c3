// What the connected server offers, and calling it: tools (form from inputSchema), prompts (form from
// their arguments), resources (read by URI) and resource templates (a form of their URI variables).
// Results render below the form.
import { useCallback, useMemo, useState } from 'react';
import type { ClientCatalog } from '../../../../../shared/api/models-playground';
import { useApi } from '../../../api/context';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { SchemaForm } from '../../../components/schema-form/SchemaForm';
import { initialValue, type JsonSchema } from '../../../components/schema-form/schema';
import { ResultView } from './ResultView';
import { PromptCompletions } from './PromptCompletions';
import { ResourceTemplateForm } from './ResourceTemplateForm';

type Section = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';
type Item = Record<string, unknown> & { name?: string; uri?: string; uriTemplate?: string; description?: string; title?: string };

const LABEL: Record<Section, string> = { tools: 'Tools', prompts: 'Prompts', resources: 'Resources', resourceTemplates: 'Templates' };

export function Catalog({
  sessionId,
  catalog,
  throughGateway,
  completions = false,
}: {
  sessionId: string;
  catalog: ClientCatalog;
  throughGateway: boolean;
  /** The server offers completion/complete (its "completions" capability). */
  completions?: boolean;
}) {
  const api = useApi();
  const [section, setSection] = useState<Section>('tools');
  const [selected, setSelected] = useState<Item>();
  const [args, setArgs] = useState<unknown>({});
  const [uri, setUri] = useState('');
  const [result, setResult] = useState<{ result: Record<string, unknown>; durationMs: number; what: string }>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const items = catalog[section] as Item[];
  const onTemplateUri = useCallback((u: string) => setUri(u), []);

  const schema = useMemo<JsonSchema | undefined>(() => {
    if (!selected) return undefined;
    if (section === 'tools') return (selected.inputSchema as JsonSchema | undefined) ?? { type: 'object' };
    if (section === 'prompts') return promptSchema(selected);
    return undefined;
  }, [selected, section]);

  const select = (item: Item) => {
    setSelected(item);
    setResult(undefined);
    setError(undefined);
    if (section === 'tools' || section === 'prompts') {
      const s = section === 'tools' ? ((item.inputSchema as JsonSchema | undefined) ?? { type: 'object' }) : promptSchema(item);
      setArgs(initialValue(s, s) ?? {});
    } else setUri(String(item.uri ?? item.uriTemplate ?? ''));
  };

  const call = async () => {
    if (!selected) return;
    setBusy(true);
    setError(undefined);
    try {
      if (section === 'tools') {
        const out = await api.call('client.callTool', { sessionId, name: String(selected.name), arguments: (args ?? {}) as Record<string, unknown> });
        setResult({ ...out, what: `tools/call ${String(selected.name)}` });
      } else if (section === 'prompts') {
        const out = await api.call('client.getPrompt', { sessionId, name: String(selected.name), arguments: stringArgs(args) });
        setResult({ ...out, what: `prompts/get ${String(selected.name)}` });
      } else {
        const out = await api.call('client.readResource', { sessionId, uri });
        setResult({ ...out, what: `resources/read ${uri}` });
      }
    } catch (err) {
      setError(err);
      setResult(undefined);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="pg-grid client">
      <section className="card pg-card catalog" aria-label="Catalog">
        <div className="tabs small" role="tablist" aria-label="Catalog sections">
          {(Object.keys(LABEL) as Section[]).map((s) => (
            <button
              key={s}
              type="button"
              role="tab"
              aria-selected={section === s}
              onClick={() => {
                setSection(s);
                setSelected(undefined);
                setResult(undefined);
              }}
            >
              {LABEL[s]} <span className="count">{(catalog[s] as unknown[]).length}</span>
            </button>
          ))}
        </div>
        {catalog.errors[section] && <div className="muted">{catalog.errors[section]}</div>}
        <ul className="pick-list" aria-label={LABEL[section]}>
          {items.map((item, i) => {
            const key = String(item.name ?? item.uri ?? item.uriTemplate ?? i);
            return (
              <li key={key}>
                <button
                  type="button"
                  className={`ghost ${selected === item ? 'on' : ''}`}
                  onClick={() => select(item)}
                  aria-label={`${LABEL[section]}: ${key}`}
                >
                  <b>{String(item.title ?? item.name ?? item.uri ?? item.uriTemplate)}</b>
                  <NameBesideTitle item={item} />
                  {item.description && <span className="muted">{String(item.description).split('\n')[0]}</span>}
                </button>
              </li>
            );
          })}
        </ul>
      </section>
      <section className="card pg-card" aria-label="Call">
        {!selected ? (
          <div className="muted">Pick an entry to call it.</div>
        ) : (
          <>
            <h2>
              {String(selected.title ?? selected.name ?? selected.uri ?? selected.uriTemplate)} <NameBesideTitle item={selected} />
            </h2>
            {selected.description && <div className="muted pre-line">{String(selected.description)}</div>}
            {schema ? (
              <SchemaForm
                label={section === 'tools' ? `Arguments of ${String(selected.name)}` : `Arguments of prompt ${String(selected.name)}`}
                schema={schema}
                value={args}
                onChange={setArgs}
              />
            ) : null}
            {section === 'prompts' && completions ? (
              <PromptCompletions
                key={String(selected.name)}
                sessionId={sessionId}
                prompt={String(selected.name)}
                argumentNames={((selected.arguments as { name: string }[] | undefined) ?? []).map((a) => a.name)}
                values={stringArgs(args)}
                onPick={(name, value) => setArgs({ ...((args ?? {}) as Record<string, unknown>), [name]: value })}
              />
            ) : null}
            {section === 'resourceTemplates' ? (
              <ResourceTemplateForm
                key={String(selected.uriTemplate)}
                sessionId={sessionId}
                uriTemplate={String(selected.uriTemplate ?? '')}
                completions={completions}
                onUri={onTemplateUri}
              />
            ) : schema ? null : (
              <label className="field">
                URI
                <input type="text" className="mono" aria-label="Resource URI" value={uri} onChange={(e) => setUri(e.target.value)} />
              </label>
            )}
            <div className="row end">
              {throughGateway && <span className="muted">Goes through the gateway's chain; recorded in Traffic.</span>}
              <button type="button" className="primary" disabled={busy} onClick={() => void call()}>
                {busy ? 'Calling…' : section === 'tools' ? 'Call tool' : section === 'prompts' ? 'Get prompt' : 'Read resource'}
              </button>
            </div>
            <ErrorBanner error={error} />
            {result && (
              <div className="call-result">
                <div className="muted">
                  {result.what} · {result.durationMs.toFixed(1)} ms
                </div>
                <ResultView result={result.result} />
              </div>
            )}
          </>
        )}
      </section>
    </div>
  );
}

/** A prompt's declared arguments as an object schema of strings (prompts/get takes string arguments). */
function promptSchema(prompt: Item): JsonSchema {
  const list = (prompt.arguments as { name: string; description?: string; required?: boolean }[] | undefined) ?? [];
  return {
    type: 'object',
    properties: Object.fromEntries(list.map((a) => [a.name, { type: 'string', ...(a.description ? { description: a.description } : {}) }])),
    required: list.filter((a) => a.required).map((a) => a.name),
  };
}

function stringArgs(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries((v ?? {}) as Record<string, unknown>)) if (x !== undefined && x !== '') out[k] = String(x);
  return out;
}

/** The name a call uses, shown beside a display title that differs from it (a title alone hid it). */
function NameBesideTitle({ item }: { item: Item }) {
  if (!item.title || !item.name || item.title === item.name) return null;
  return (
    <code className="muted" data-testid="entry-name">
      {item.name}
    </code>
  );
}
