// How the Traffic and Sinks screens write times, durations and outcomes.
import type { TrafficRow } from '../../../../shared/api/models-traffic';

export function clockTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const today = new Date();
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
  if (d.toDateString() === today.toDateString()) return time;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
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
