// How the Traffic and Sinks screens write times, durations and outcomes.
import type { TrafficRow } from '../../../../shared/api/models-traffic';

// Today's local bounds, recomputed only when the day has changed: formatting a row is a comparison,
// not a `new Date()` and two date strings (it runs for every row scrolled into view).
const today = { start: 0, end: 0 };
function refreshToday(now: number): void {
  const d = new Date(now);
  today.start = new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  today.end = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
}

export function clockTime(iso: string): string {
  const d = new Date(iso);
  const ms = d.getTime();
  if (Number.isNaN(ms)) return iso;
  const now = Date.now();
  if (now >= today.end || now < today.start) refreshToday(now);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
  return ms >= today.start && ms < today.end ? time : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export function duration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  if (ms < 10_000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

export const OUTCOME_LABEL: Record<TrafficRow['outcome'], string> = { allow: 'allowed', blocked: 'blocked', mutated: 'mutated', error: 'error' };

/** The "tool error" badge's explanation: it sits beside the outcome and is not one. */
export const TOOL_ERROR_TITLE = 'The tool ran and answered with isError: true. The chain let it through: the outcome is what the chain decided.';

export function blocker(b: TrafficRow['blockedBy']): string {
  return b ? `${b.server}/${b.interceptor}` : '';
}

export function pretty(value: unknown): string {
  if (value === undefined) return '(none)';
  return JSON.stringify(value, null, 2) ?? String(value);
}

export function count(n: number, capped = false): string {
  return `${n.toLocaleString('en-US')}${capped ? '+' : ''}`;
}
