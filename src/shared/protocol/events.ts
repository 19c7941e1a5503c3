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
