// Execution keys are `started_ms * SLOT + n`: ordering by key is ordering by start time (ties in
// insertion order), so pages, time ranges and the search index (whose rowid is this key) share
// one order and need no separate time index. 1024 per ms keeps keys exact in a JS number until
// the year 2248; a slot that is full spills into the next millisecond's slot.
export const SLOT = 1024;

/** How many following slots an insert may try before giving up (a burst of >1M records in one ms). */
export const MAX_SLOT_OVERFLOW = 1000;

export function slotBase(startedMs: number): number {
  return startedMs * SLOT;
}

/** The smallest key of executions started at or after `ms`. */
export function lowerKeyFor(ms: number): number {
  return Math.floor(ms) * SLOT;
}

/** A key above every execution started before `ms`, allowing for slot overflow. */
export function upperKeyFor(ms: number): number {
  return (Math.ceil(ms) + MAX_SLOT_OVERFLOW) * SLOT;
}
