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

/**
 * One pass over the result's own fields: nullish ones and empty `messages`/`suggestions` are left out,
 * nested values lose their nullish fields, and a mutation's payload is carried as it is, last (a payload
 * belongs to the client: its nulls stay). Every invoke result goes through here, ten per tools/call with
 * the samples, so it copies once rather than through three spreads.
 */
export function resultToWire(r: InterceptorResult): InterceptorResult {
  const source = r as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (key === 'payload') continue;
    const value = source[key];
    if (value === undefined || value === null) continue;
    if ((key === 'messages' || key === 'suggestions') && Array.isArray(value) && value.length === 0) continue;
    setOwnKey(out, key, typeof value === 'object' ? omitNullish(value) : value);
  }
  if (r.type === 'mutation') out.payload = r.payload;
  return out as InterceptorResult;
}
