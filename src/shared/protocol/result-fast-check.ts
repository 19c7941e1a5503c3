// A hand-written check of an interceptor result that answers "InterceptorResultSchema accepts this as it
// is" for the shapes hosts actually send, without zod's pass (which copies every object it parses: about
// a fifth of an in-process invoke's cost, and paid again by the invoker). It is only ever a shortcut: when
// it says true, zod would accept the value and give back an equal one; when it says false, the caller
// runs zod, which either accepts (a shape this check does not know, such as an odd but valid field) or
// produces the error message. So it may be stricter than the schema, never looser
// (test/protocol/result-fast-check.test.ts holds it to that).
import type { InterceptorResult } from './schemas';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const SEVERITIES = new Set(['info', 'warn', 'error']);

function optional(v: unknown, check: (v: unknown) => boolean): boolean {
  return v === undefined || check(v);
}

function isMessage(m: unknown): boolean {
  return (
    isObject(m) &&
    typeof m.message === 'string' &&
    typeof m.severity === 'string' &&
    SEVERITIES.has(m.severity) &&
    optional(m.path, (p) => typeof p === 'string')
  );
}

function isSuggestion(s: unknown): boolean {
  return isObject(s) && typeof s.path === 'string';
}

function isStringKeyedRecord(v: unknown, value: (x: unknown) => boolean): boolean {
  if (!isObject(v) || Object.getPrototypeOf(v) !== Object.prototype) return false;
  for (const k in v) if (!value(v[k])) return false;
  return true;
}

/** True only when InterceptorResultSchema accepts `r` unchanged; false means "ask the schema". */
export function passesResultSchema(r: unknown): r is InterceptorResult {
  if (!isObject(r) || Object.getPrototypeOf(r) !== Object.prototype) return false;
  if (typeof r.interceptor !== 'string' || (r.phase !== 'request' && r.phase !== 'response')) return false;
  if (!optional(r.durationMs, isFiniteNumber) || !optional(r.info, (i) => isStringKeyedRecord(i, () => true))) return false;
  switch (r.type) {
    case 'validation':
      return (
        typeof r.valid === 'boolean' &&
        optional(r.severity, (s) => typeof s === 'string') &&
        optional(r.messages, (ms) => Array.isArray(ms) && ms.every(isMessage)) &&
        optional(r.suggestions, (ss) => Array.isArray(ss) && ss.every(isSuggestion))
      );
    case 'mutation':
      return typeof r.modified === 'boolean';
    case 'sink':
      return typeof r.recorded === 'boolean' && optional(r.metrics, (m) => isStringKeyedRecord(m, isFiniteNumber));
    default:
      return false;
  }
}
