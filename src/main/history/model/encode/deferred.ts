// Executions encoded by the writer, not by the gateway. Encoding a record (its payload table, a JSON text per
// step, the search fields) cost the gateway's thread ~65 µs per call with the samples chain, and sending the
// encoded form to the writer thread ~45 µs more (a structured clone of dozens of small strings and objects).
// Serialising the record once (~30–45 µs) and sending that one string (~1 µs) does the same job: the writer
// thread parses and encodes it, off the thread that forwards the traffic. The result is the same encoded
// form: encodeExecution reads nothing a JSON round trip changes, once checkExecution has passed (payloads are
// deduplicated by their text as well as by object, NaN and Infinity read as absent either way, and an
// unparsable startedAt is filed under the time the record was handed over, not the time it was encoded).
//
// What must not wait for the writer stays here: the checks that refuse a record (counted at hand-over, as
// before) and JSON.stringify's own refusals (BigInt, cycles). The writer's parse makes the whole more work
// than encoding here, so the recorder defers only while its writer keeps up: with a full batch waiting the
// writer's thread is the limit, and encoding on the caller's overlaps its inserts (sqlite-history-writer.ts).
//
// The journal and spill files take a deferred execution as a line with its text inline (fileLine: a
// concatenation, no escaping and no encoding on the gateway's thread: under load a good part of all
// records reach the journal before the writer commits them), read back as a JournaledExecution and encoded by the
// writer like the deferred one. A build from before this format reads such a line as a record it cannot
// write: it keeps it in the dead-letter file, not lost.
import type { ExecutionRecord } from '../../../../shared/trace/execution';
import type { DeferredExecution, EncodedItem, QueueItem } from './encoded';
import { checkExecution, encodeExecution, RecordRejectedError } from './encode';

/** Memory a deferred record holds besides its text (the queue's bound). */
const DEFERRED_OVERHEAD_BYTES = 200;

/** Checks `record` and keeps it as JSON text; throws what encodeExecution would (RecordRejectedError, BigInt, cycles). */
export function deferExecution(record: ExecutionRecord): DeferredExecution {
  checkExecution(record);
  const text = JSON.stringify(record);
  if (typeof text !== 'string') throw new RecordRejectedError('the execution record is not an object');
  return { kind: 'execution-text', uuid: record.id, text, receivedMs: Date.now(), bytes: text.length * 2 + DEFERRED_OVERHEAD_BYTES };
}

/** The form the store writes: a deferred or journaled execution encoded, anything else as it is. */
export function toStoredForm(item: QueueItem): EncodedItem {
  if (item.kind === 'execution-text') return encodeExecution(JSON.parse(item.text) as ExecutionRecord, item.receivedMs);
  if (item.kind === 'execution-record') return encodeExecution(item.record as ExecutionRecord, item.receivedMs);
  return item;
}

/** Whether the writer encodes `item` (toStoredForm does work for it). */
export function isDeferred(item: QueueItem): boolean {
  return item.kind === 'execution-text' || item.kind === 'execution-record';
}

/** One line of a journal or spill file for `item`, newline included; JSON.parse of it gives back a QueueItem. */
export function fileLine(item: QueueItem): string {
  if (item.kind !== 'execution-text') return `${JSON.stringify(item)}\n`;
  // The text is JSON already (deferExecution made it): inline, as the record's value.
  return `{"kind":"execution-record","receivedMs":${item.receivedMs},"record":${item.text}}\n`;
}
