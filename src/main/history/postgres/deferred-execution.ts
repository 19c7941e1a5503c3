// Executions a PostgreSQL recorder keeps as their JSON text, encoded where the batch is written (its writer
// thread, writer-thread/), not on the gateway's thread: there the recorder only checks the record (what
// refuses it is counted at hand-over, as before) and serializes it once, which it did anyway for the row's
// record_json. encodeExecution reads nothing a JSON round trip changes once checkExecution has passed (see the
// SQLite recorder's model/encode/deferred.ts, which does the same); an unparsable startedAt is filed under the
// time the record was handed over, as it was. In a journal the item is a line like any other and is encoded
// when the next recorder writes it.
import type { ExecutionRecord } from '../../../shared/trace/execution';
import { checkExecution, encodeExecution, RecordRejectedError } from '../model/encode/encode';
import type { StoredPgItem } from './batch-insert';

export interface DeferredPgExecution {
  kind: 'execution';
  deferred: true;
  uuid: string;
  gateway: string;
  /** What send order keys a session's rows by (encodeExecution's sessionKey). */
  sessionKey: string | null;
  /** The (redacted) record's JSON text: the row's record_json, and what the writer encodes. */
  json: string;
  receivedMs: number;
}

/** Checks `record` and keeps its JSON text; throws what encodeExecution would (RecordRejectedError, BigInt, cycles). */
export function deferPgExecution(record: ExecutionRecord): DeferredPgExecution {
  checkExecution(record);
  const json = JSON.stringify(record);
  if (typeof json !== 'string') throw new RecordRejectedError('the execution record is not an object');
  return {
    kind: 'execution',
    deferred: true,
    uuid: record.id,
    gateway: record.gateway,
    sessionKey: typeof record.sessionId === 'string' ? record.sessionId : null,
    json,
    receivedMs: Date.now(),
  };
}

/**
 * The item as the batch insert writes it. A deferred execution that cannot be encoded (it passed the checks at
 * hand-over, so only a bug would make it so) fails with a code no retry treats as an outage: its batch is then
 * written in halves and that record alone is refused and counted.
 */
export function storedPgItem(item: StoredPgItem | DeferredPgExecution): StoredPgItem {
  if (item.kind !== 'execution' || !('deferred' in item)) return item;
  try {
    return { ...encodeExecution(JSON.parse(item.json) as ExecutionRecord, item.receivedMs), json: item.json };
  } catch (err) {
    throw Object.assign(new Error(`execution ${item.uuid} cannot be encoded: ${(err as Error).message}`), { code: 'IC-ENCODE' });
  }
}
