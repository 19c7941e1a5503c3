// Time-ordered UUIDs (RFC 9562 version 7: 48 bits of epoch milliseconds, then random bits) for ids that
// the store indexes as they are written. A random (v4) key lands on a random page of its index, so each
// batch dirties (and the WAL rewrites) pages all over the B-tree; keys that grow with time append at the
// end of the index instead. Measured on the messages table (uuid UNIQUE, execution_uuid indexed): about a
// fifth less CPU per insert, and the gap widens as the table outgrows the page cache.
import { randomUUID } from 'node:crypto';

/** A version-7 UUID: `tttttttt-tttt-7xxx-yxxx-xxxxxxxxxxxx`, sorting by creation time to the millisecond. */
export function timeOrderedUuid(now: number = Date.now()): string {
  const t = Math.max(0, Math.floor(now)).toString(16).padStart(12, '0').slice(-12);
  // randomUUID() is `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx` from a pooled entropy cache (cheaper than
  // drawing bytes ourselves); its last 74 random bits and its RFC variant are kept, the version becomes 7.
  return `${t.slice(0, 8)}-${t.slice(8)}-7${randomUUID().slice(15)}`;
}
