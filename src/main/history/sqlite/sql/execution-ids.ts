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

/**
 * Inserts a row under the next free key of its millisecond slot (a full slot moves on to the next one).
 * The key is guessed from this process's last insert and corrected when another process took it first.
 * `insert` runs the statement with a key and returns its changes (0: the row's uuid is stored already);
 * `lastInSlot` reads the highest key used in [from, to). Returns the key used, or undefined for a duplicate.
 */
export function insertUnderSlotKey(
  atMs: number,
  lastKey: number | undefined,
  insert: (key: number) => number,
  lastInSlot: (from: number, to: number) => number | null,
): number | undefined {
  let base = slotBase(atMs);
  let candidate = lastKey !== undefined && lastKey >= base && lastKey < base + SLOT - 1 ? lastKey + 1 : base;
  for (let attempt = 0; ; attempt++) {
    try {
      return insert(candidate) === 0 ? undefined : candidate;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY' || attempt >= MAX_SLOT_OVERFLOW + 2) throw err;
      const last = lastInSlot(base, base + SLOT);
      if (last !== null && last >= base + SLOT - 1) {
        base += SLOT;
        const next = lastInSlot(base, base + SLOT);
        candidate = next === null ? base : next + 1;
      } else {
        candidate = last === null ? base : last + 1;
      }
    }
  }
}
