// Hook matching (spec §3.1 plus A14): exact names, "*", namespace globs like "tools/*",
// and the legacy "*/request" / "*/response" spellings on input.
import { NEVER_INTERCEPTED, type Phase } from './constants';
import type { Hook } from './schemas';

/** True iff `pattern` (an entry of hook.events) covers the concrete `event` in `phase`. */
export function eventPatternMatches(pattern: string, event: string, phase: Phase): boolean {
  if (NEVER_INTERCEPTED.has(event) || event.startsWith('notifications/')) return false;
  if (pattern === '*' || pattern === event) return true;
  if (pattern === '*/request' || pattern === '*/response') return pattern === `*/${phase}`;
  if (pattern.includes('*')) return globToRegExp(pattern).test(event);
  return false;
}

export function hookMatches(hook: Hook, event: string, phase: Phase): boolean {
  return hook.phase === phase && hook.events.some((p) => eventPatternMatches(p, event, phase));
}

/** Any phase: used by `interceptors/list?event=` (spec §1.2). */
export function hooksCoverEvent(hooks: readonly Hook[], event: string): boolean {
  return hooks.some((h) => h.events.some((p) => eventPatternMatches(p, event, h.phase)));
}

/**
 * `interceptors/list` filter for a concrete event or a pattern ("*", "tools/*"): the interceptors that hook
 * it, i.e. some hook's declared pattern covers everything the queried pattern can match. For "*" that is
 * exactly what the TS reference host answers (interceptors hooking "*"); for a concrete event it is
 * hooksCoverEvent.
 */
export function hooksCoverPattern(hooks: readonly Hook[], pattern: string): boolean {
  if (!pattern.includes('*')) return hooksCoverEvent(hooks, pattern);
  return hooks.some((h) => h.events.some((p) => patternCovers(p, pattern, h.phase)));
}

/** True iff the declared pattern covers everything the requested pattern could match in `phase`. */
export function patternCovers(declared: string, requested: string, phase: Phase): boolean {
  if (declared === requested) return true;
  if (declared === '*' || declared === `*/${phase}`) return true;
  if (requested === '*' || requested.startsWith('*/')) return false;
  if (!requested.includes('*')) return eventPatternMatches(declared, requested, phase);
  if (!declared.includes('*')) return false;
  // Glob inside glob: test the declared glob against the requested one with its `*`s taken literally.
  // A `**` (crosses "/") is only covered by a declared `**`.
  if (requested.includes('**') && !declared.includes('**')) return false;
  return eventPatternMatches(declared, requested, phase);
}

export function globToRegExpCached(glob: string): RegExp {
  return globToRegExp(glob);
}

const globCache = new Map<string, RegExp>();
function globToRegExp(glob: string): RegExp {
  let re = globCache.get(glob);
  if (!re) {
    // "*" inside a segment matches within that segment; "**" crosses "/".
    const body = glob
      .split('**')
      .map((part) => part.split('*').map(escapeRegExp).join('[^/]*'))
      .join('.*');
    re = new RegExp(`^${body}$`);
    globCache.set(glob, re);
  }
  return re;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
