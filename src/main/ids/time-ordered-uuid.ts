// Time-ordered UUIDs (RFC 9562 version 7: 48 bits of epoch milliseconds, then random bits) for ids that
// the store indexes as they are written. A random (v4) key lands on a random page of its index, so each
// batch dirties (and the WAL rewrites) pages all over the B-tree; keys that grow with time append at the
// end of the index instead. Measured on the messages table (uuid UNIQUE, execution_uuid indexed): about a
// fifth less CPU per insert, and the gap widens as the table outgrows the page cache.
//
// A gateway makes one per captured message (about twenty per call through the samples chain), so the
// hot path matters ([path-speed]): the time prefix is formatted once per millisecond, and the random
// bits come from a pooled buffer of the CSPRNG's bytes turned into hex by table (~0.1 µs instead of
// ~0.5 µs through randomUUID() and string slicing).
import { randomFillSync } from 'node:crypto';

/** Random bytes per id: 4 bits of rand_a's first digit (the low nibble of byte 0), 8 more, then 62 of rand_b. */
const BYTES_PER_ID = 10;
const pool = Buffer.allocUnsafe(BYTES_PER_ID * 512);
let poolAt = pool.length;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
let prefixMs = -1;
let prefix = '';

/** A version-7 UUID: `tttttttt-tttt-7xxx-yxxx-xxxxxxxxxxxx`, sorting by creation time to the millisecond. */
export function timeOrderedUuid(now: number = Date.now()): string {
  const ms = Math.max(0, Math.floor(now));
  if (ms !== prefixMs) {
    const t = ms.toString(16).padStart(12, '0').slice(-12);
    prefix = `${t.slice(0, 8)}-${t.slice(8)}-7`;
    prefixMs = ms;
  }
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const r = pool;
  const i = poolAt;
  poolAt += BYTES_PER_ID;
  // rand_a: 12 bits; then the RFC variant (10xx) over the top two bits of rand_b's first byte.
  return (
    prefix +
    HEX[r[i]! & 0x0f]![1]! +
    HEX[r[i + 1]!]! +
    '-' +
    HEX[0x80 | (r[i + 2]! & 0x3f)]! +
    HEX[r[i + 3]!]! +
    '-' +
    HEX[r[i + 4]!]! +
    HEX[r[i + 5]!]! +
    HEX[r[i + 6]!]! +
    HEX[r[i + 7]!]! +
    HEX[r[i + 8]!]! +
    HEX[r[i + 9]!]!
  );
}
