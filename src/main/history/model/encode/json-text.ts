// JSON text helpers shared by the encoder and the reader.
import { createHash } from 'node:crypto';

/** JSON text of a value, or null for undefined (an absent field). Throws on BigInt or cycles. */
export function toJsonText(value: unknown): string | null {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  // JSON.stringify returns undefined for functions and symbols: treat them as absent.
  return text === undefined ? null : text;
}

export function parseJsonText<T = unknown>(text: string | null | undefined): T | undefined {
  if (text === null || text === undefined) return undefined;
  return JSON.parse(text) as T;
}

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Splits an object into the keys a table has columns for and a JSON object of the others. */
export function extraFields(value: object, known: ReadonlySet<string>): string | null {
  let extra: Record<string, unknown> | undefined;
  // for...in rather than Object.entries: no array per record on the recording path.
  for (const k in value) {
    if (known.has(k) || !Object.prototype.hasOwnProperty.call(value, k)) continue;
    const v = (value as Record<string, unknown>)[k];
    if (v === undefined) continue;
    (extra ??= {})[k] = v;
  }
  return extra ? JSON.stringify(extra) : null;
}
