// A hand-written check of `interceptor/invoke` params that answers "InvokeParamsSchema accepts this as it
// is" for the shapes invokers actually send, without zod's pass (which copies every object it parses: a
// tenth of a stdio host's busy time per invoke). Like result-fast-check.ts it is only ever a shortcut:
// true means zod would accept the value and give back an equal one; false means "ask the schema", which
// either accepts (a rarer shape, such as params with `_meta`) or produces the error message. So it may be
// stricter than the schema, never looser (test/protocol/invoke-fast-check.test.ts holds it to that).
import type { InvokeParams } from './schemas';

type Obj = Record<string, unknown>;

const isPlainObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
const isOptionalString = (v: unknown): boolean => v === undefined || typeof v === 'string';
const PRINCIPAL_TYPES = new Set(['user', 'service', 'anonymous']);

function isPrincipal(p: unknown): boolean {
  return (
    isPlainObject(p) &&
    typeof p.type === 'string' &&
    PRINCIPAL_TYPES.has(p.type) &&
    isOptionalString(p.id) &&
    (p.claims === undefined || isPlainObject(p.claims))
  );
}

function isContext(c: unknown): boolean {
  return (
    isPlainObject(c) &&
    (c.principal === undefined || isPrincipal(c.principal)) &&
    isOptionalString(c.traceId) &&
    isOptionalString(c.spanId) &&
    isOptionalString(c.timestamp) &&
    isOptionalString(c.sessionId)
  );
}

/** True only when InvokeParamsSchema accepts `p` unchanged; false means "ask the schema". */
export function passesInvokeParams(p: unknown): p is InvokeParams {
  if (!isPlainObject(p)) return false;
  if (typeof p.name !== 'string' || p.name.length === 0) return false;
  if (typeof p.event !== 'string' || p.event.length === 0) return false;
  if (p.phase !== 'request' && p.phase !== 'response') return false;
  // The schema wants the key (any value but undefined, which JSON cannot carry anyway).
  if (p.payload === undefined) return false;
  // `_meta` is rare on invokes and has its own rules: the schema decides.
  if (p._meta !== undefined) return false;
  if (p.config !== undefined && !isPlainObject(p.config)) return false;
  if (p.timeoutMs !== undefined && !(Number.isSafeInteger(p.timeoutMs) && (p.timeoutMs as number) >= 0)) return false;
  return p.context === undefined || isContext(p.context);
}
