// Structured edits of the `overrides` map of a config document (A11). Pure functions over the raw JSON
// value: a field set to undefined is removed, an override left empty is removed, so the file only says
// what the user actually changed.

export type Hook = { events: string[]; phase: 'request' | 'response' };
export type PriorityHint = number | { request?: number; response?: number };

export interface OverridePatch {
  enabled?: boolean | undefined;
  mode?: 'active' | 'audit' | undefined;
  failOpen?: boolean | undefined;
  priorityHint?: PriorityHint | undefined;
  timeoutMs?: number | undefined;
  config?: Record<string, unknown> | undefined;
  hooks?: Hook[] | undefined;
}

export type RawOverride = Record<string, unknown>;

export function overridesOf(raw: Record<string, unknown> | undefined): Record<string, RawOverride> {
  const o = raw?.overrides;
  return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, RawOverride>) : {};
}

export function overrideOf(raw: Record<string, unknown> | undefined, key: string): RawOverride {
  return overridesOf(raw)[key] ?? {};
}

/** Applies `patch` to the override `key`: keys present in the patch with `undefined` are removed. */
export function patchOverride(raw: Record<string, unknown>, key: string, patch: OverridePatch): Record<string, unknown> {
  const overrides = { ...overridesOf(raw) };
  const next: RawOverride = { ...(overrides[key] ?? {}) };
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) delete next[field];
    else next[field] = value;
  }
  if (Object.keys(next).length === 0) delete overrides[key];
  else overrides[key] = next;
  const out = { ...raw };
  if (Object.keys(overrides).length === 0) delete out.overrides;
  else out.overrides = overrides;
  return out;
}

/** Enabling removes `enabled:false` (interceptors are enabled unless an override says otherwise). */
export function setEnabled(raw: Record<string, unknown>, key: string, enabled: boolean): Record<string, unknown> {
  return patchOverride(raw, key, { enabled: enabled ? undefined : false });
}

/**
 * A canvas drag's new order of one phase's mutations, as priorities: 10, 20, 30… in that phase (lower runs
 * first; distinct, so the order no longer falls back to names). The other phase keeps the priority an
 * override already gave it, else its current one (`otherPhase`), so reordering one lane never moves the other.
 */
export function reorderMutations(
  raw: Record<string, unknown>,
  phase: 'request' | 'response',
  orderedIds: readonly string[],
  otherPhase: (id: string) => number | undefined,
): Record<string, unknown> {
  const other = phase === 'request' ? 'response' : 'request';
  let out = raw;
  orderedIds.forEach((id, i) => {
    const current = overridesOf(out)[id]?.priorityHint as number | Record<string, number> | undefined;
    const kept = typeof current === 'number' ? current : current && typeof current === 'object' ? current[other] : undefined;
    const otherValue = kept ?? otherPhase(id);
    const hint: PriorityHint = { [phase]: (i + 1) * 10, ...(otherValue !== undefined ? { [other]: otherValue } : {}) };
    out = patchOverride(out, id, { priorityHint: hint });
  });
  return out;
}
