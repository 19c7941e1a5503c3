// Output normalisation: what goes on the wire omits defaults and nulls (conformance "known quirks"):
// no mode:"active", no failOpen:false, no priorityHint:0, no empty messages.
import { setOwnKey } from './canonical';
import type { InterceptorDescriptor, InterceptorResult } from './schemas';

/** Drops keys whose value is undefined or null, recursively through plain objects and arrays (for our own
 * descriptors and result fields only: never run it over a payload, whose nulls belong to the client). */
export function omitNullish<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => omitNullish(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined || v === null) continue;
      setOwnKey(out, k, omitNullish(v));
    }
    return out as T;
  }
  return value;
}

export function descriptorToWire(d: InterceptorDescriptor): InterceptorDescriptor {
  const out: Record<string, unknown> = { ...d };
  if (out.mode === 'active') delete out.mode;
  if (out.failOpen === false) delete out.failOpen;
  if (out.priorityHint === 0) delete out.priorityHint;
  return omitNullish(out) as InterceptorDescriptor;
}

export function resultToWire(r: InterceptorResult): InterceptorResult {
  const out: Record<string, unknown> = { ...r };
  if (Array.isArray(out.messages) && out.messages.length === 0) delete out.messages;
  if (Array.isArray(out.suggestions) && out.suggestions.length === 0) delete out.suggestions;
  // The payload of a mutation is carried even when null-ish fields are removed elsewhere.
  const payload = r.type === 'mutation' ? r.payload : undefined;
  const cleaned = omitNullish({ ...out, payload: undefined }) as Record<string, unknown>;
  if (r.type === 'mutation') cleaned.payload = payload;
  return cleaned as InterceptorResult;
}
