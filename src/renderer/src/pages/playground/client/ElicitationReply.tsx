// The answer form of an elicitation/create request. Form mode: a field per property of the request's
// requestedSchema (string with its format, number, integer, boolean, single-select enum by `enum`,
// `enumNames` or `oneOf` consts, multi-select arrays), required ones marked; URL mode: the link to open.
// Accept, Decline or Cancel. The core checks the content against the schema (its message shows here),
// so the form does not block submission on its own.
import { useState } from 'react';
import type { PendingServerRequest, ServerRequestAnswer } from '../../../../../shared/api/models-client-requests';

type Field = Record<string, unknown> & { type?: string; title?: string; description?: string; default?: unknown; format?: string };
type Option = { value: string; label: string };
type Value = string | boolean | string[];

export function ElicitationReply({
  request,
  onAnswer,
  busy,
}: {
  request: PendingServerRequest;
  onAnswer: (answer: ServerRequestAnswer) => void;
  busy: boolean;
}) {
  const params = request.params;
  const isUrl = params.mode === 'url';
  const schema = (params.requestedSchema ?? {}) as { properties?: Record<string, Field>; required?: string[] };
  const fields = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const [values, setValues] = useState<Record<string, Value>>(() => Object.fromEntries(fields.map(([k, f]) => [k, initial(f)])));
  const set = (key: string, v: Value) => setValues((old) => ({ ...old, [key]: v }));

  const accept = () => {
    if (isUrl) return onAnswer({ kind: 'elicitation', action: 'accept' });
    const content: Record<string, string | number | boolean | string[]> = {};
    for (const [key, field] of fields) {
      const v = values[key];
      if (v === undefined || v === '') continue;
      if ((field.type === 'number' || field.type === 'integer') && typeof v === 'string') content[key] = Number(v);
      else content[key] = v;
    }
    onAnswer({ kind: 'elicitation', action: 'accept', content });
  };

  return (
    <form
      className="server-request-form"
      aria-label="Elicitation form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        accept();
      }}
    >
      {typeof params.message === 'string' && <div className="pre-line">{params.message}</div>}
      {isUrl ? (
        <div>
          Open{' '}
          <a href={String(params.url)} target="_blank" rel="noopener noreferrer" className="mono">
            {String(params.url)}
          </a>{' '}
          to continue, then accept.
        </div>
      ) : (
        <div className="elicitation-fields">
          {fields.map(([key, field]) => (
            <ElicitationField key={key} name={key} field={field} required={required.has(key)} value={values[key]!} onChange={(v) => set(key, v)} />
          ))}
        </div>
      )}
      <div className="row end">
        <button type="button" disabled={busy} onClick={() => onAnswer({ kind: 'elicitation', action: 'cancel' })}>
          Cancel
        </button>
        <button type="button" disabled={busy} onClick={() => onAnswer({ kind: 'elicitation', action: 'decline' })}>
          Decline
        </button>
        <button type="submit" className="primary" disabled={busy}>
          Accept
        </button>
      </div>
    </form>
  );
}

function ElicitationField({
  name,
  field,
  required,
  value,
  onChange,
}: {
  name: string;
  field: Field;
  required: boolean;
  value: Value;
  onChange: (v: Value) => void;
}) {
  const label = (
    <>
      {field.title ?? name}
      {required && (
        <span className="required" aria-label="required">
          {' '}
          *
        </span>
      )}
    </>
  );
  const hint = field.description ? <span className="hint">{field.description}</span> : null;
  const single = options(field);
  if (field.type === 'boolean') {
    return (
      <label className="check">
        <input type="checkbox" aria-label={name} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
        {label} {hint}
      </label>
    );
  }
  if (field.type === 'array') {
    const choices = options((field.items ?? {}) as Field) ?? [];
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset className="field">
        <legend>{label}</legend>
        {hint}
        <div className="row wrap" role="group" aria-label={name}>
          {choices.map((o) => (
            <label key={o.value} className="check">
              <input
                type="checkbox"
                checked={chosen.includes(o.value)}
                onChange={(e) => onChange(e.target.checked ? [...chosen, o.value] : chosen.filter((x) => x !== o.value))}
              />
              {o.label}
            </label>
          ))}
        </div>
      </fieldset>
    );
  }
  if (single) {
    return (
      <label className="field">
        {label}
        {hint}
        <select aria-label={name} value={String(value)} onChange={(e) => onChange(e.target.value)}>
          <option value="" disabled={required}>
            {required ? 'choose…' : '(none)'}
          </option>
          {single.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
    );
  }
  const numeric = field.type === 'number' || field.type === 'integer';
  const type = numeric ? 'number' : field.format === 'email' ? 'email' : field.format === 'uri' ? 'url' : field.format === 'date' ? 'date' : 'text';
  return (
    <label className="field">
      {label}
      {hint}
      <input
        type={type}
        aria-label={name}
        value={String(value)}
        onChange={(e) => onChange(e.target.value)}
        {...(numeric ? { step: field.type === 'integer' ? 1 : 'any', min: field.minimum as number | undefined, max: field.maximum as number | undefined } : {})}
      />
    </label>
  );
}

/** A single-select enum's choices with their labels (`oneOf` titles, legacy `enumNames`), else undefined. */
function options(field: Field): Option[] | undefined {
  if (Array.isArray(field.enum)) {
    const names = Array.isArray(field.enumNames) ? (field.enumNames as unknown[]) : [];
    return field.enum.map((v, i) => ({ value: String(v), label: names[i] !== undefined ? `${String(names[i])} (${String(v)})` : String(v) }));
  }
  const alternatives = (field.oneOf ?? field.anyOf) as Field[] | undefined;
  if (Array.isArray(alternatives) && alternatives.every((a) => a.const !== undefined)) {
    return alternatives.map((a) => ({ value: String(a.const), label: a.title ? `${a.title} (${String(a.const)})` : String(a.const) }));
  }
  return undefined;
}

function initial(field: Field): Value {
  if (field.type === 'boolean') return field.default === true;
  if (field.type === 'array') return Array.isArray(field.default) ? field.default.map(String) : [];
  return field.default !== undefined ? String(field.default) : '';
}
