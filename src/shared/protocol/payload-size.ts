// The per-invoke payload size limit (issue 15): an interceptor host refuses an `interceptor/invoke`
// whose payload is larger, and an invoker does not send one. Work on a payload is at best linear in
// its size, so this bounds what one call can cost an interceptor server shared by many clients.

/** Default limit on both sides: generous (a 4 MB tool argument), never unbounded. */
export const DEFAULT_MAX_PAYLOAD_BYTES = 4 * 1024 * 1024;

/** Size of a JSON value as it travels: UTF-8 bytes of its JSON text. */
export function jsonByteLength(value: unknown): number {
  const text = JSON.stringify(value);
  if (text === undefined) return 0;
  // src/shared also runs in the renderer, which has no Buffer.
  return typeof Buffer === 'undefined' ? new TextEncoder().encode(text).length : Buffer.byteLength(text, 'utf8');
}

/** The error data both sides attach, so the trace says what was refused and what to change. */
export interface PayloadTooLarge {
  interceptor: string;
  reason: 'payload too large';
  payloadBytes: number;
  maxPayloadBytes: number;
}

export function payloadTooLarge(interceptor: string, payloadBytes: number, maxPayloadBytes: number): PayloadTooLarge {
  return { interceptor, reason: 'payload too large', payloadBytes, maxPayloadBytes };
}
