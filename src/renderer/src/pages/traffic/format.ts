// How the Traffic and Sinks screens write times, durations and outcomes.
import type { TrafficRow } from '../../../../shared/api/models-execution';

// Times are written by the renderer's one time formatter (time-format.ts); re-exported for these screens.
export { clockTime } from '../../time-format';

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
