// A structural diff of two JSON values: the list of changes, each at a path. Objects are compared key by
// key; arrays are aligned on their longest common subsequence of equal elements, so one inserted element
// reads as one addition rather than as every later element changing; elements left unmatched at the same
// place are compared structurally. Changed strings also carry a word-level diff for inline highlighting.

export type JsonPath = (string | number)[];

export type JsonChange =
  | { kind: 'added'; path: JsonPath; after: unknown }
  | { kind: 'removed'; path: JsonPath; before: unknown }
  | { kind: 'changed'; path: JsonPath; before: unknown; after: unknown; text?: TextPart[] };

/** A run of a string diff: kept, removed (only in before) or added (only in after). */
export interface TextPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Above this many element pairs, arrays are compared index by index (LCS is quadratic). */
const LCS_LIMIT = 250_000;
const TEXT_TOKEN_LIMIT = 4_000;

export function diffJson(before: unknown, after: unknown): JsonChange[] {
  const out: JsonChange[] = [];
  walk(before, after, [], out);
  return out;
}

export function isContainer(v: unknown): v is Record<string, unknown> | unknown[] {
  return typeof v === 'object' && v !== null;
}

function walk(a: unknown, b: unknown, path: JsonPath, out: JsonChange[]): void {
  if (a === b) return;
  if (Array.isArray(a) && Array.isArray(b)) return walkArrays(a, b, path, out);
  if (isContainer(a) && isContainer(b) && !Array.isArray(a) && !Array.isArray(b)) return walkObjects(a, b, path, out);
  if (stableKey(a) === stableKey(b)) return;
  const change: JsonChange = { kind: 'changed', path, before: a, after: b };
  if (typeof a === 'string' && typeof b === 'string') {
    const text = diffText(a, b);
    if (text) change.text = text;
  }
  out.push(change);
}

function walkObjects(a: Record<string, unknown>, b: Record<string, unknown>, path: JsonPath, out: JsonChange[]): void {
  for (const key of Object.keys(a)) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) out.push({ kind: 'removed', path: [...path, key], before: a[key] });
    else walk(a[key], b[key], [...path, key], out);
  }
  for (const key of Object.keys(b)) {
    if (!Object.prototype.hasOwnProperty.call(a, key)) out.push({ kind: 'added', path: [...path, key], after: b[key] });
  }
}

function walkArrays(a: unknown[], b: unknown[], path: JsonPath, out: JsonChange[]): void {
  if (a.length * b.length > LCS_LIMIT) {
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (i >= a.length) out.push({ kind: 'added', path: [...path, i], after: b[i] });
      else if (i >= b.length) out.push({ kind: 'removed', path: [...path, i], before: a[i] });
      else walk(a[i], b[i], [...path, i], out);
    }
    return;
  }
  const ka = a.map(stableKey);
  const kb = b.map(stableKey);
  const pairs = lcs(ka, kb);
  let i = 0;
  let j = 0;
  const flushGap = (endA: number, endB: number) => {
    // Unmatched elements at the same place are the same element, changed: compare them structurally.
    while (i < endA && j < endB) {
      walk(a[i], b[j], [...path, j], out);
      i++;
      j++;
    }
    while (i < endA) out.push({ kind: 'removed', path: [...path, i], before: a[i++] });
    while (j < endB) out.push({ kind: 'added', path: [...path, j], after: b[j++] });
  };
  for (const [pa, pb] of pairs) {
    flushGap(pa, pb);
    i = pa + 1;
    j = pb + 1;
  }
  flushGap(a.length, b.length);
}

/** Index pairs of a longest common subsequence of two key lists. */
function lcs<T>(a: T[], b: T[]): [number, number][] {
  const n = a.length;
  const m = b.length;
  // Trim the common prefix and suffix first: the usual case (one small edit) costs nothing.
  let start = 0;
  while (start < n && start < m && a[start] === b[start]) start++;
  let endA = n;
  let endB = m;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const pairs: [number, number][] = [];
  for (let k = 0; k < start; k++) pairs.push([k, k]);
  const rows = endA - start;
  const cols = endB - start;
  if (rows > 0 && cols > 0) {
    const table = new Uint32Array((rows + 1) * (cols + 1));
    for (let x = rows - 1; x >= 0; x--) {
      for (let y = cols - 1; y >= 0; y--) {
        table[x * (cols + 1) + y] =
          a[start + x] === b[start + y] ? table[(x + 1) * (cols + 1) + y + 1]! + 1 : Math.max(table[(x + 1) * (cols + 1) + y]!, table[x * (cols + 1) + y + 1]!);
      }
    }
    let x = 0;
    let y = 0;
    while (x < rows && y < cols) {
      if (a[start + x] === b[start + y]) {
        pairs.push([start + x, start + y]);
        x++;
        y++;
      } else if (table[(x + 1) * (cols + 1) + y]! >= table[x * (cols + 1) + y + 1]!) x++;
      else y++;
    }
  }
  for (let k = 0; k < n - endA; k++) pairs.push([endA + k, endB + k]);
  return pairs;
}

/** Key-order-insensitive identity of a JSON value. */
export function stableKey(v: unknown): string {
  if (v === undefined) return 'undefined';
  return JSON.stringify(v, (_k, value: unknown) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(value as Record<string, unknown>).sort()) sorted[k] = (value as Record<string, unknown>)[k];
      return sorted;
    }
    return value;
  });
}

/**
 * Word-level diff of two strings (undefined when they are too long to diff usefully). A changed stretch
 * reads as the words removed, then the words added ("my ssn is" → "just a normal"), never interleaved
 * word by word: a space or a lone punctuation mark common to both sides does not split a change in two.
 */
export function diffText(a: string, b: string): TextPart[] | undefined {
  const ta = tokenize(a);
  const tb = tokenize(b);
  if (ta.length * tb.length > (TEXT_TOKEN_LIMIT * TEXT_TOKEN_LIMIT) / 16) return undefined;
  const pairs = lcs(ta, tb);
  // Token by token first: the runs between common tokens, and the common tokens themselves.
  const runs: { kind: TextPart['kind']; text: string }[] = [];
  let i = 0;
  let j = 0;
  for (const [pa, pb] of [...pairs, [ta.length, tb.length] as [number, number]]) {
    if (pa > i) runs.push({ kind: 'removed', text: ta.slice(i, pa).join('') });
    if (pb > j) runs.push({ kind: 'added', text: tb.slice(j, pb).join('') });
    if (pa < ta.length) runs.push({ kind: 'same', text: ta[pa]! });
    i = pa + 1;
    j = pb + 1;
  }
  const parts = hunks(runs);
  // Mostly rewritten text reads better as before → after than as interleaved fragments.
  const kept = parts.filter((p) => p.kind === 'same').reduce((n, p) => n + p.text.trim().length, 0);
  const longest = Math.max(a.length, b.length);
  if (longest > 30 && kept < 0.2 * longest) return undefined;
  return parts;
}

/** A common token too slight to anchor a change on: whitespace, or one punctuation mark. */
function isGlue(text: string): boolean {
  return /^\s*$/.test(text) || /^\s*[^\p{L}\p{N}_\s]\s*$/u.test(text);
}

/**
 * Joins changes separated only by glue into one hunk (its removed text, then its added text, the glue on
 * both sides) and merges neighbours of the same kind.
 */
function hunks(runs: { kind: TextPart['kind']; text: string }[]): TextPart[] {
  const out: TextPart[] = [];
  const push = (kind: TextPart['kind'], text: string) => {
    if (!text) return;
    const last = out[out.length - 1];
    if (last && last.kind === kind) last.text += text;
    else out.push({ kind, text });
  };
  let k = 0;
  while (k < runs.length) {
    if (runs[k]!.kind === 'same') {
      push('same', runs[k++]!.text);
      continue;
    }
    // A hunk: changes, and glue between changes (glue at its end stays common).
    let removed = '';
    let added = '';
    let end = k;
    for (let x = k; x < runs.length; x++) {
      const r = runs[x]!;
      if (r.kind !== 'same') end = x + 1;
      else if (!isGlue(r.text)) break;
    }
    for (let x = k; x < end; x++) {
      const r = runs[x]!;
      if (r.kind !== 'added') removed += r.text;
      if (r.kind !== 'removed') added += r.text;
    }
    push('removed', removed);
    push('added', added);
    k = end;
  }
  return out;
}

function tokenize(s: string): string[] {
  return s.match(/[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu) ?? [];
}

/** `$.arguments.message`, `$.content[0].text`: the path as people read it. */
export function formatPath(path: JsonPath): string {
  let s = '$';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : /^[A-Za-z_$][\w$]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`;
  return s;
}
