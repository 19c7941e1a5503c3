// Canonical JSON for comparisons (conformance README): keys sorted by UTF-16 code units, no whitespace.
// Rebuilt objects keep an own `__proto__` key as an own key (JSON.parse makes one; plain assignment would
// set the prototype instead and the key would silently vanish from the comparison).

/** `out[key] = value`, except that an own `__proto__` key stays an own key. */
export function setOwnKey(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // Default sort compares UTF-16 code units: exactly what the fixtures require (never localeCompare).
    for (const k of Object.keys(value as Record<string, unknown>).sort()) {
      setOwnKey(out, k, sortKeys((value as Record<string, unknown>)[k]));
    }
    return out;
  }
  return value;
}

/** Deletes the given keys at any depth (the fixtures' `volatile` keys). */
export function stripKeys(value: unknown, keys: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => stripKeys(v, keys));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (!keys.has(k)) setOwnKey(out, k, stripKeys(v, keys));
    }
    return out;
  }
  return value;
}
