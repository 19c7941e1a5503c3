// An interceptor's effective settings: what it declares (interceptors/list) with the gateway config's
// override on top (A11). The one place this is computed: the chain planner (src/main/interceptors/chain/
// order.ts) runs on it, and every view that shows a setting (palette, canvas, side panel, failure
// simulation) shows its result with where it came from, so the views cannot disagree with the gateway.
export type SettingSource = 'declared' | 'override';
export interface Setting<T> {
  value: T;
  source: SettingSource;
}

type Mode = 'active' | 'audit';
type PriorityHint = number | { request?: number; response?: number };

export interface DeclaredSettings {
  mode?: string;
  failOpen?: boolean;
  priorityHint?: PriorityHint;
}

export interface OverrideSettings {
  enabled?: boolean;
  mode?: string;
  failOpen?: boolean;
  priorityHint?: PriorityHint;
  timeoutMs?: number;
}

export interface EffectiveSettings {
  enabled: Setting<boolean>;
  mode: Setting<Mode>;
  failOpen: Setting<boolean>;
  priority: { request: Setting<number>; response: Setting<number> };
}

/** A5: the legacy `enforce` is `active`; anything unknown counts as not set. */
function mode(value: string | undefined): Mode | undefined {
  if (value === 'enforce' || value === 'active') return 'active';
  return value === 'audit' ? 'audit' : undefined;
}

function pick<T>(override: T | undefined, declared: T | undefined, fallback: T): Setting<T> {
  if (override !== undefined) return { value: override, source: 'override' };
  return { value: declared ?? fallback, source: 'declared' };
}

/** An override's priorityHint replaces the declared one as a whole (a phase it leaves out is 0). */
function priority(phase: 'request' | 'response', declared?: PriorityHint, override?: PriorityHint): Setting<number> {
  const hint = override ?? declared;
  const value = hint === undefined ? 0 : typeof hint === 'number' ? hint : (hint[phase] ?? 0);
  return { value, source: override !== undefined ? 'override' : 'declared' };
}

export function effectiveSettings(declared: DeclaredSettings | undefined, override: OverrideSettings | undefined): EffectiveSettings {
  return {
    enabled: pick(override?.enabled, undefined, true),
    mode: pick(mode(override?.mode), mode(declared?.mode), 'active'),
    failOpen: pick(override?.failOpen, declared?.failOpen, false),
    priority: {
      request: priority('request', declared?.priorityHint, override?.priorityHint),
      response: priority('response', declared?.priorityHint, override?.priorityHint),
    },
  };
}

/** "priority -2000000 (override)", "fail-open (declared)": how every view labels a setting. */
export function labelled<T>(s: Setting<T>, text: string = String(s.value)): string {
  return `${text} (${s.source})`;
}
