// A form generated from a JSON Schema (interceptor `configSchema`, tool `inputSchema`), with a raw JSON
// tab as the fallback for anything the form does not cover. Shared by the Playground (invoke config,
// client tool calls) and the Chain screen (config overrides). The value is plain JSON; onChange gets
// the whole new value. Inline errors come from the same schema (schema.ts `validate`).
import { createContext, useCallback, useContext, useEffect, useId, useMemo, useRef, useState } from 'react';
import { JsonEditor, parseJsonText } from '../json-editor/JsonEditor';
import { formatIssuePath, initialValue, kindOf, resolve, unwrapNullable, validate, type JsonSchema, type SchemaIssue } from './schema';
import './schema-form.css';

export interface SchemaFormProps {
  schema: JsonSchema;
  value: unknown;
  onChange(value: unknown): void;
  /** Accessible name of the whole form, e.g. "Config of pii-validator". */
  label: string;
  /**
   * Called with the first JSON syntax error typed anywhere in the form (raw tab or a raw field), and with
   * undefined once none is left: while one stands, `value` is the last valid value, not what is shown, so
   * a caller that sends the value (Invoke) holds back.
   */
  onJsonError?(error: string | undefined): void;
}

/** Where raw JSON inputs report their syntax error (keyed by input), gathered by SchemaForm. */
const JsonErrorReport = createContext<(key: string, error: string | undefined) => void>(() => undefined);

function useJsonErrorReport(key: string, error: string | undefined) {
  const report = useContext(JsonErrorReport);
  useEffect(() => report(key, error), [key, error, report]);
  useEffect(() => () => report(key, undefined), [key, report]);
}

export function SchemaForm({ schema, value, onChange, label, onJsonError }: SchemaFormProps) {
  const [mode, setMode] = useState<'form' | 'json'>(kindOf(resolve(schema, schema)) === 'raw' ? 'json' : 'form');
  const [rawText, setRawText] = useState(() => JSON.stringify(value ?? {}, null, 2));
  const [rawError, setRawError] = useState<string>();
  const issues = useMemo(() => validate(schema, value), [schema, value]);
  const jsonErrors = useRef(new Map<string, string>());
  const onJsonErrorRef = useRef(onJsonError);
  onJsonErrorRef.current = onJsonError;
  const report = useCallback((key: string, error: string | undefined) => {
    const before = jsonErrors.current.values().next().value;
    if (error) jsonErrors.current.set(key, error);
    else jsonErrors.current.delete(key);
    const after = jsonErrors.current.values().next().value;
    if (before !== after) onJsonErrorRef.current?.(after);
  }, []);
  useJsonErrorReportOf(report, 'raw-tab', mode === 'json' ? rawError : undefined);

  const switchTo = (next: 'form' | 'json') => {
    if (next === 'json') setRawText(JSON.stringify(value ?? {}, null, 2));
    // Leaving the raw tab drops its unparsable text: the form shows the last valid value.
    setRawError(undefined);
    setMode(next);
  };

  return (
    <JsonErrorReport.Provider value={report}>
      <div className="schema-form" role="group" aria-label={label}>
        <div className="tabs small" role="tablist">
          <button type="button" role="tab" aria-selected={mode === 'form'} onClick={() => switchTo('form')}>
            Form
          </button>
          <button type="button" role="tab" aria-selected={mode === 'json'} onClick={() => switchTo('json')}>
            Raw JSON
          </button>
        </div>
        {mode === 'form' ? (
          <Field schema={schema} root={schema} value={value} onChange={onChange} path={[]} issues={issues} />
        ) : (
          <>
            <JsonEditor
              label={`${label} (raw JSON)`}
              value={rawText}
              height="180px"
              onChange={(text) => {
                setRawText(text);
                const parsed = parseJsonText(text);
                setRawError(parsed.ok ? undefined : parsed.error);
                if (parsed.ok) onChange(parsed.value);
              }}
            />
            {rawError && <div className="field-error">{rawError}</div>}
          </>
        )}
        {issues.length > 0 && (
          <ul className="schema-issues" aria-label="Schema problems">
            {issues.map((i, n) => (
              <li key={n}>
                <code>{formatIssuePath(i.path)}</code> {i.message}
              </li>
            ))}
          </ul>
        )}
      </div>
    </JsonErrorReport.Provider>
  );
}

function useJsonErrorReportOf(report: (key: string, error: string | undefined) => void, key: string, error: string | undefined) {
  useEffect(() => report(key, error), [key, error, report]);
}

interface FieldProps {
  schema: JsonSchema;
  root: JsonSchema;
  value: unknown;
  onChange(value: unknown): void;
  path: (string | number)[];
  issues: SchemaIssue[];
  name?: string;
  required?: boolean;
}

function Field(props: FieldProps) {
  const { root, value, onChange, path, name } = props;
  const id = useId();
  const { schema, nullable } = unwrapNullable(resolve(props.schema, root), root);
  const kind = kindOf(schema);
  const title = schema.title ?? name;
  const own = props.issues.filter((i) => samePath(i.path, path));
  const isNull = nullable && value === null;

  const head = title !== undefined && (
    <div className="field-head">
      <label htmlFor={id}>
        {title}
        {props.required && (
          <span className="req" title="required">
            {' '}
            *
          </span>
        )}
      </label>
      {nullable && (
        <label className="check null-toggle">
          <input type="checkbox" checked={isNull} onChange={(e) => onChange(e.target.checked ? null : initialValue(schema, root))} /> null
        </label>
      )}
    </div>
  );
  const help = schema.description && <div className="hint">{schema.description}</div>;
  const errors = own.map((i, n) => (
    <div className="field-error" key={n}>
      {i.message}
    </div>
  ));

  if (isNull)
    return (
      <div className="field">
        {head}
        {help}
      </div>
    );

  if (kind === 'object') {
    const obj = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    const props_ = schema.properties ?? {};
    const extra = Object.keys(obj).filter((k) => !(k in props_));
    return (
      <fieldset className={path.length === 0 ? 'field root' : 'field nested'}>
        {path.length > 0 && title !== undefined && <legend>{title}</legend>}
        {help}
        {Object.keys(props_).length === 0 && <RawField id={id} value={obj} onChange={onChange} />}
        {Object.entries(props_).map(([key, child]) => (
          <Field
            key={key}
            name={key}
            schema={child}
            root={root}
            path={[...path, key]}
            issues={props.issues}
            required={schema.required?.includes(key)}
            value={obj[key]}
            onChange={(v) => {
              const next = { ...obj };
              if (v === undefined) delete next[key];
              else next[key] = v;
              onChange(next);
            }}
          />
        ))}
        {extra.length > 0 && <div className="hint">Also set (not in the schema): {extra.join(', ')}</div>}
        {errors}
      </fieldset>
    );
  }

  if (kind === 'array') {
    const items = Array.isArray(value) ? value : [];
    return (
      <div className="field">
        {head}
        {help}
        <ol className="array-items">
          {items.map((item, i) => (
            <li key={i}>
              <Field
                schema={schema.items ?? {}}
                root={root}
                value={item}
                path={[...path, i]}
                issues={props.issues}
                onChange={(v) => onChange(items.map((x, j) => (j === i ? v : x)))}
              />
              <button
                type="button"
                className="ghost small"
                aria-label={`Remove item ${i + 1} of ${title ?? 'list'}`}
                onClick={() => onChange(items.filter((_, j) => j !== i))}
              >
                ✕
              </button>
            </li>
          ))}
        </ol>
        <button type="button" className="small" onClick={() => onChange([...items, initialValue(schema.items, root)])}>
          + Add {title ? `to ${title}` : 'item'}
        </button>
        {errors}
      </div>
    );
  }

  let control: React.ReactNode;
  if (kind === 'enum') {
    const options = schema.enum ?? [schema.const];
    const index = options.findIndex((o) => JSON.stringify(o) === JSON.stringify(value));
    control = (
      <select id={id} value={index} onChange={(e) => onChange(options[Number(e.target.value)])}>
        {index < 0 && <option value={-1}>(choose)</option>}
        {options.map((o, i) => (
          <option key={i} value={i}>
            {typeof o === 'string' ? o : JSON.stringify(o)}
          </option>
        ))}
      </select>
    );
  } else if (kind === 'boolean') {
    control = <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
  } else if (kind === 'number' || kind === 'integer') {
    control = (
      <input
        id={id}
        type="number"
        value={typeof value === 'number' ? value : ''}
        min={schema.minimum ?? schema.exclusiveMinimum}
        max={schema.maximum ?? schema.exclusiveMaximum}
        step={kind === 'integer' ? 1 : 'any'}
        onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      />
    );
  } else if (kind === 'string') {
    const long = (schema.maxLength ?? 0) > 200 || (typeof value === 'string' && value.length > 80);
    control = long ? (
      <textarea id={id} rows={3} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} />
    ) : (
      <input id={id} type="text" value={typeof value === 'string' ? value : ''} placeholder={schema.format ?? ''} onChange={(e) => onChange(e.target.value)} />
    );
  } else {
    control = <RawField id={id} value={value} onChange={onChange} />;
  }
  return (
    <div className={`field ${kind}`}>
      {head}
      {control}
      {help}
      {errors}
    </div>
  );
}

/** A single JSON value typed as text, for schema parts the form does not cover. */
function RawField({ id, value, onChange }: { id: string; value: unknown; onChange(v: unknown): void }) {
  const [text, setText] = useState(() => (value === undefined ? '' : JSON.stringify(value)));
  const [error, setError] = useState<string>();
  useJsonErrorReport(id, error);
  return (
    <>
      <input
        id={id}
        type="text"
        className="mono"
        value={text}
        placeholder="JSON value"
        onChange={(e) => {
          setText(e.target.value);
          if (!e.target.value.trim()) {
            setError(undefined);
            onChange(undefined);
            return;
          }
          const parsed = parseJsonText(e.target.value);
          setError(parsed.ok ? undefined : parsed.error);
          if (parsed.ok) onChange(parsed.value);
        }}
      />
      {error && <div className="field-error">{error}</div>}
    </>
  );
}

function samePath(a: (string | number)[], b: (string | number)[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
