// Redaction at rest of values quoted in free text. A path redacts a field where it is, but a validator's
// message ("password 'hunter2' is on a breach list"), the block text a client was sent ("Blocked by …: <the
// messages>") or an error's message can quote the very value elsewhere in the record, as free text no path
// names. So every value a path redacted in a record (and, for captured messages, earlier in the same
// execution: the client's request is captured before the validator's answer) is also replaced wherever a
// string of the record contains it. Values shorter than MIN_QUOTED_CHARS stay with their paths only: replacing
// every "yes" or "42" of a record would hide more than it protects.
import { setOwnKey } from '../../../../shared/protocol/canonical';

export const MIN_QUOTED_CHARS = 4;

/** Executions whose values are remembered for their later messages; the oldest are forgotten first. */
const REMEMBERED_EXECUTIONS = 2048;

/** Adds the strings of a redacted value (numbers as written), long enough to look for, to `into`. */
export function collectQuotable(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    if (value.length >= MIN_QUOTED_CHARS) into.add(value);
  } else if (typeof value === 'number' && Number.isFinite(value)) {
    const text = String(value);
    if (text.length >= MIN_QUOTED_CHARS) into.add(text);
  } else if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value as Record<string, unknown>)) collectQuotable(inner, into);
  }
}

/**
 * `value` with every occurrence of each quoted value in its strings (object keys aside) replaced, longest
 * first (so a value that contains another goes whole). Copy on write: the input is never modified.
 */
export function replaceQuoted<T>(value: T, quoted: ReadonlySet<string>, replacement: string): T {
  if (quoted.size === 0) return value;
  const needles = [...quoted].sort((a, b) => b.length - a.length);
  const inText = (text: string): string => {
    let out = text;
    for (const needle of needles) if (out.includes(needle)) out = out.split(needle).join(replacement);
    return out;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return inText(v);
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      let out: unknown[] | undefined;
      v.forEach((child, i) => {
        const next = walk(child);
        if (next !== child) (out ??= v.slice())[i] = next;
      });
      return out ?? v;
    }
    let out: Record<string, unknown> | undefined;
    for (const [key, child] of Object.entries(v as Record<string, unknown>)) {
      const next = walk(child);
      if (next === child) continue;
      out ??= { ...(v as Record<string, unknown>) }; // a spread copies an own `__proto__` as a key
      setOwnKey(out, key, next); // and so does this, where an assignment would set the prototype
    }
    return out ?? v;
  };
  return walk(value) as T;
}

/** Values redacted in an execution's messages so far, for its later messages and its record. */
export class QuotedByExecution {
  private readonly byExecution = new Map<string, Set<string>>();

  /** Adds `values` to what the execution's later records are searched for. */
  remember(executionId: string, values: ReadonlySet<string>): void {
    if (values.size === 0) return;
    let known = this.byExecution.get(executionId);
    if (!known) {
      known = new Set();
      this.byExecution.set(executionId, known);
      if (this.byExecution.size > REMEMBERED_EXECUTIONS) this.byExecution.delete(this.byExecution.keys().next().value!);
    }
    for (const v of values) known.add(v);
  }

  /** Adds what is remembered for the execution to `into`. */
  addTo(executionId: string | undefined, into: Set<string>): void {
    if (executionId === undefined) return;
    for (const v of this.byExecution.get(executionId) ?? []) into.add(v);
  }
}
