// Differences between an expected and an actual JSON value, as JSON paths ("$.content[0].text"), with
// some paths ignored: `$.a.b`, `$.a[0]`, `$.a[*].b`, `$.*.id`, `$['odd key']`. A chain test reports each
// difference with both values, so a failure says what changed without opening the payloads.
export interface JsonDifference {
  path: string;
  expected?: unknown;
  actual?: unknown;
  /** 'changed', or a value only one side has. */
  kind: 'changed' | 'missing' | 'unexpected';
}

type Segment = string | number;

/** `$.a[0]['b c'].*` → ['a', 0, 'b c', '*']; throws on a path it cannot read. */
export function parseJsonPath(path: string): Segment[] {
  if (!path.startsWith('$')) throw new Error(`JSON path "${path}" must start with "$"`);
  const out: Segment[] = [];
  const re = /\.([A-Za-z_$*][\w$-]*)|\[(\d+|\*)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  let i = 1;
  while (i < path.length) {
    re.lastIndex = i;
    const m = re.exec(path);
    if (!m) throw new Error(`JSON path "${path}" cannot be read at character ${i + 1} ("${path.slice(i)}")`);
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(m[2] === '*' ? '*' : Number(m[2]));
    else out.push((m[3] ?? m[4])!.replace(/\\(.)/g, '$1'));
    i = re.lastIndex;
  }
  return out;
}

function formatPath(segments: Segment[]): string {
  return `$${segments.map((s) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join('')}`;
}

function matches(pattern: Segment[], segments: Segment[]): boolean {
  if (pattern.length > segments.length) return false;
  // A pattern ignores the value at its path and everything under it.
  return pattern.every((p, i) => p === '*' || p === segments[i]);
}

export function diffJson(expected: unknown, actual: unknown, ignore: readonly string[] = [], limit = 50): JsonDifference[] {
  const patterns = ignore.map(parseJsonPath);
  const out: JsonDifference[] = [];
  const walk = (e: unknown, a: unknown, at: Segment[]): void => {
    if (out.length >= limit) return;
    if (patterns.some((p) => matches(p, at))) return;
    if (Array.isArray(e) && Array.isArray(a)) {
      for (let i = 0; i < Math.max(e.length, a.length); i++) {
        if (i >= a.length) out.push({ path: formatPath([...at, i]), expected: e[i], kind: 'missing' });
        else if (i >= e.length) out.push({ path: formatPath([...at, i]), actual: a[i], kind: 'unexpected' });
        else walk(e[i], a[i], [...at, i]);
      }
      return;
    }
    if (isObject(e) && isObject(a)) {
      for (const key of Object.keys(e)) {
        if (!Object.hasOwn(a, key)) {
          if (!patterns.some((p) => matches(p, [...at, key]))) out.push({ path: formatPath([...at, key]), expected: e[key], kind: 'missing' });
        } else walk(e[key], a[key], [...at, key]);
      }
      for (const key of Object.keys(a)) {
        if (!Object.hasOwn(e, key) && !patterns.some((p) => matches(p, [...at, key]))) {
          out.push({ path: formatPath([...at, key]), actual: a[key], kind: 'unexpected' });
        }
      }
      return;
    }
    if (!Object.is(e, a)) out.push({ path: formatPath(at), expected: e, actual: a, kind: 'changed' });
  };
  walk(expected, actual, []);
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
