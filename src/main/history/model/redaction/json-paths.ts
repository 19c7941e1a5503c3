// Path patterns for redaction at rest, relative to a payload's root:
//   arguments.password        a key path
//   $.headers.authorization   an optional `$` / `$.` prefix
//   items[*].token, items[0]  array indexes, `*` for any key or index
//   **.apiKey                 `**` for any depth (zero or more levels)
//   ["key.with.dots"]         quoted keys
export type PathSegment = string; // a key, '*', or '**'

export class RedactionPathError extends Error {
  override name = 'RedactionPathError';
}

export function parsePath(path: string): PathSegment[] {
  let rest = path.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  const segments: PathSegment[] = [];
  const fail = (why: string) => {
    throw new RedactionPathError(`redaction path "${path}": ${why} (write it like arguments.password, items[*].token or **.apiKey)`);
  };
  let i = 0;
  while (i < rest.length) {
    const ch = rest[i];
    if (ch === '.') {
      i++;
      if (i >= rest.length || rest[i] === '.' || rest[i] === '[') fail(`empty segment at ${i}`);
      continue;
    }
    if (ch === '[') {
      const close = rest.indexOf(']', i);
      if (close < 0) fail('unclosed [');
      const inner = rest.slice(i + 1, close).trim();
      if (inner === '*' || /^\d+$/.test(inner)) segments.push(inner);
      else if (/^(["']).*\1$/.test(inner)) segments.push(inner.slice(1, -1));
      else fail(`[${inner}] is neither an index, * nor a quoted key`);
      i = close + 1;
      continue;
    }
    let end = i;
    while (end < rest.length && rest[end] !== '.' && rest[end] !== '[') end++;
    segments.push(rest.slice(i, end));
    i = end;
  }
  if (segments.length === 0) fail('it names no field');
  if (segments[segments.length - 1] === '**') fail('it cannot end with **');
  return segments;
}

type State = readonly [pattern: number, segment: number];

/** Called with each value a redaction replaced (quoted-values.ts looks for it in the record's free text). */
export type OnRedacted = (value: unknown) => void;

/**
 * Returns `value` with every field matched by a pattern replaced by `replacement`. Copy on write:
 * untouched branches are shared with the input, and the input itself is never modified. `found` sees every
 * value replaced.
 */
export function redactPaths(value: unknown, patterns: readonly PathSegment[][], replacement: unknown, found?: OnRedacted): unknown {
  if (patterns.length === 0) return value;
  return walk(value, atRoot(patterns), patterns, replacement, found);
}

/** Every pattern at its first segment: where a walk starts, at a payload's root. */
function atRoot(patterns: readonly PathSegment[][]): State[] {
  return patterns.map((_, p) => [p, 0] as const);
}

function advance(states: readonly State[], key: string, patterns: readonly PathSegment[][]): { next: State[]; hit: boolean } {
  const next: State[] = [];
  let hit = false;
  const push = (p: number, s: number) => {
    const pattern = patterns[p]!;
    if (s === pattern.length) hit = true;
    else next.push([p, s]);
  };
  const visit = (p: number, s: number) => {
    const seg = patterns[p]![s];
    if (seg === '**') {
      next.push([p, s]); // ** keeps absorbing deeper keys
      visit(p, s + 1); // ...or matches zero levels: the next segment faces this key
      return;
    }
    if (seg === '*' || seg === key) push(p, s + 1);
  };
  for (const [p, s] of states) visit(p, s);
  return { next, hit };
}

function walk(value: unknown, states: readonly State[], patterns: readonly PathSegment[][], replacement: unknown, found?: OnRedacted): unknown {
  if (states.length === 0 || value === null || typeof value !== 'object') return value;
  const replace = (child: unknown): unknown => {
    found?.(child);
    return replacement;
  };
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((child, index) => {
      const { next, hit } = advance(states, String(index), patterns);
      const replaced = hit ? replace(child) : walk(child, next, patterns, replacement, found);
      if (replaced !== child) (out ??= value.slice())[index] = replaced;
    });
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const { next, hit } = advance(states, key, patterns);
    const replaced = hit ? replace(child) : walk(child, next, patterns, replacement, found);
    if (replaced !== child) (out ??= { ...(value as Record<string, unknown>) })[key] = replaced;
  }
  return out ?? value;
}

/**
 * A value found at `path` inside a payload (a validation result's suggestion, `{path, value}`), redacted as it
 * would be there: the replacement when a pattern matches the path itself or one of its ancestors, its matched
 * fields when a pattern reaches below it. `$` (or an empty path) is the payload's root; a path starting with `/`
 * is a JSON Pointer (RFC 6901, as JSON Schema validators report `instancePath`). A path that cannot be read
 * (not a string, or malformed) gets the replacement: nothing shows it is outside every pattern.
 */
export function redactAtPath(path: unknown, value: unknown, patterns: readonly PathSegment[][], replacement: unknown, found?: OnRedacted): unknown {
  if (patterns.length === 0) return value;
  const replace = (): unknown => {
    found?.(value);
    return replacement;
  };
  if (typeof path !== 'string') return replace();
  let states = atRoot(patterns);
  const trimmed = path.trim();
  if (trimmed !== '' && trimmed !== '$') {
    let segments: PathSegment[];
    if (trimmed.startsWith('/')) {
      segments = trimmed
        .slice(1)
        .split('/')
        .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
    } else {
      try {
        segments = parsePath(trimmed);
      } catch {
        return replace();
      }
    }
    for (const key of segments) {
      const { next, hit } = advance(states, key, patterns);
      if (hit) return replace();
      if (next.length === 0) return value;
      states = next;
    }
  }
  return walk(value, states, patterns, replacement, found);
}
