// Writes one batch in one transaction, on whichever thread owns the connection. When the
// database refuses an item for what it is (a constraint, a value too big), the batch is written
// again item by item and the refused ones are reported; a transient error (busy, locked, full)
// leaves everything unwritten so the caller retries the whole batch later.
import type Database from 'better-sqlite3';
import type { EncodedItem, QueueItem } from '../../model/encode/encoded';
import { isDeferred, toStoredForm } from '../../model/encode/deferred';
import type { ExecutionInserter, WriteResult } from '../sql/inserter';
import { describeError, isTransient } from '../../model/recording/retry-policy';

export interface BatchTally {
  written: number;
  duplicates: number;
  sessions: number;
  gateways: number;
  /** Captured messages written (duplicates of a replayed journal are not counted). */
  messages: number;
}

export type BatchResult = { ok: true; tally: BatchTally; refused: { index: number; reason: string }[] } | { ok: false; error: string };

function count(tally: BatchTally, item: EncodedItem, result: WriteResult): void {
  if (item.kind === 'message') {
    if (result === 'written') tally.messages++;
  } else if (item.kind === 'execution') {
    if (result === 'written') tally.written++;
    else tally.duplicates++;
  } else if (item.kind === 'session') tally.sessions++;
  else tally.gateways++;
}

/** Encodes the batch's deferred executions (deferred.ts); one that cannot be encoded is refused, never written half. */
function storedForms(queued: QueueItem[]): { items: EncodedItem[]; indexes: number[] | undefined; refused: { index: number; reason: string }[] } {
  if (!queued.some(isDeferred)) return { items: queued as EncodedItem[], indexes: undefined, refused: [] };
  const items: EncodedItem[] = [];
  const indexes: number[] = [];
  const refused: { index: number; reason: string }[] = [];
  queued.forEach((item, index) => {
    try {
      items.push(toStoredForm(item));
      indexes.push(index);
    } catch (err) {
      refused.push({ index, reason: `not encodable: ${describeError(err)}` });
    }
  });
  return { items, indexes, refused };
}

export function applyBatch(db: Database.Database, inserter: ExecutionInserter, queued: QueueItem[]): BatchResult {
  const { items, indexes, refused: notEncodable } = storedForms(queued);
  const result = applyEncoded(db, inserter, items);
  if (!result.ok || indexes === undefined) return result;
  // Indexes of what the database refused are into `items`: the caller's are into `queued`.
  const refused = [...notEncodable, ...result.refused.map((r) => ({ index: indexes[r.index]!, reason: r.reason }))].sort((a, b) => a.index - b.index);
  return { ok: true, tally: result.tally, refused };
}

function applyEncoded(db: Database.Database, inserter: ExecutionInserter, items: EncodedItem[]): BatchResult {
  const tally: BatchTally = { written: 0, duplicates: 0, sessions: 0, gateways: 0, messages: 0 };
  const writeAll = db.transaction((batch: EncodedItem[]) => {
    inserter.beginBatch();
    const results = batch.map((item) => inserter.write(item));
    inserter.endBatch();
    return results;
  });
  try {
    const results = writeAll.immediate(items);
    items.forEach((item, i) => count(tally, item, results[i] ?? 'written'));
    return { ok: true, tally, refused: [] };
  } catch (err) {
    inserter.resetCaches();
    if (isTransient(err)) return { ok: false, error: describeError(err) };
  }
  const refused: { index: number; reason: string }[] = [];
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    try {
      const [result] = writeAll.immediate([item]);
      count(tally, item, result ?? 'written');
    } catch (err) {
      inserter.resetCaches();
      // Items written one by one so far stay written; a retry skips them as duplicates.
      if (isTransient(err)) return { ok: false, error: describeError(err) };
      refused.push({ index, reason: describeError(err) });
    }
  }
  return { ok: true, tally, refused };
}
