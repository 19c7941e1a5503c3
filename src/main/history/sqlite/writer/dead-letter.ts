// Records the database refused for what they are (a constraint, a value too big) are not retried:
// they go to a dead-letter file beside the database, one JSON line each with the reason, so that
// nothing is silently dropped and someone can look at them.
import { appendPrivateFile } from '../../../files/private-files';
import type { QueueItem } from '../../model/encode/encoded';
import { toStoredForm } from '../../model/encode/deferred';
import { describeError } from '../../model/recording/retry-policy';

export function describeItem(item: QueueItem): string {
  if (item.kind === 'execution' || item.kind === 'execution-text') return `execution ${item.uuid}`;
  if (item.kind === 'execution-record') return `execution ${String((item.record as { id?: unknown } | null)?.id)}`;
  if (item.kind === 'message') return `message ${item.uuid}`;
  return item.kind === 'session' ? `session ${item.key}` : `gateway ${item.name}`;
}

/** Appends the refused item; `ok: false` when even that failed (the record is then lost). */
export function keepRefused(path: string, queued: QueueItem, reason: string): { ok: boolean; message: string } {
  const what = describeItem(queued);
  let item: QueueItem;
  try {
    item = toStoredForm(queued);
  } catch {
    item = queued; // not encodable: kept as the record's JSON text
  }
  try {
    appendPrivateFile(path, `${JSON.stringify({ reason, item })}\n`, { existing: 'fix' });
    return { ok: true, message: `${what} was refused by the database (${reason}); kept in ${path}` };
  } catch (err) {
    return { ok: false, message: `${what} was refused by the database (${reason}) and could not be kept: ${describeError(err)}` };
  }
}
