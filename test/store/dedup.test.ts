// Large payloads are stored once: a 1 MB payload seen at four points of an execution costs about
// 1 MB of file, and so does the same payload in later executions. Measured as file growth.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getExecutionRecord, openStore, SqliteHistoryWriter } from '../../src/main/history/sqlite';
import { makeExecution, tempDir } from './fixtures';
import { VOCABULARY } from '../../scripts/generate-executions';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const MB = 1024 * 1024;

/** About `bytes` of JSON made of words (as a tool result would be), unique per seed. */
function bigPayload(bytes: number, seed: number) {
  const words: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const w = VOCABULARY[(i * 7919 + seed * 104729) % VOCABULARY.length]!;
    words.push(w);
    size += w.length + 1;
  }
  return { content: [{ type: 'text', text: `${seed} ${words.join(' ')}` }] };
}

/** The execution carries `payload` as request received and forwarded, step input and trace input. */
function withPayload(payload: unknown) {
  const rec = makeExecution({ outcome: 'allow' });
  rec.requestReceived = payload;
  rec.requestForwarded = JSON.parse(JSON.stringify(payload)); // equal content, another object
  rec.requestTrace!.inputPayload = payload;
  rec.requestTrace!.steps[0]!.input = JSON.parse(JSON.stringify(payload));
  return rec;
}

async function fileSizeAfter(path: string, recorder: SqliteHistoryWriter): Promise<number> {
  await recorder.flush();
  const s = openStore(path, { create: false });
  s.db.pragma('wal_checkpoint(TRUNCATE)');
  s.close();
  return statSync(path).size;
}

describe('payload deduplication', () => {
  it('stores a 1 MB payload seen at four points once, and once again for later executions', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const path = join(t.dir, 'history.db');
    const recorder = SqliteHistoryWriter.open(path, { writerThread: false });
    recorder.recordExecution(makeExecution());
    const empty = await fileSizeAfter(path, recorder);

    const payload = bigPayload(MB, 1);
    const first = withPayload(payload);
    recorder.recordExecution(first);
    const one = await fileSizeAfter(path, recorder);
    expect(one - empty).toBeGreaterThan(0.9 * MB);
    expect(one - empty).toBeLessThan(1.4 * MB); // not 4 MB

    for (let i = 0; i < 3; i++) recorder.recordExecution(withPayload(bigPayload(MB, 1)));
    const four = await fileSizeAfter(path, recorder);
    expect(four - one).toBeLessThan(0.25 * MB); // three more executions, the payload is not stored again

    // Control: four different payloads do cost four times as much.
    for (let i = 0; i < 4; i++) recorder.recordExecution(withPayload(bigPayload(MB, 100 + i)));
    const control = await fileSizeAfter(path, recorder);
    expect(control - four).toBeGreaterThan(3.6 * MB);

    await recorder.close();
    const store = openStore(path, { create: false });
    expect(getExecutionRecord(store.db, first.id)).toEqual(first);
    expect(store.db.prepare('SELECT count(*) FROM payloads').pluck().get()).toBe(5);
    store.close();
  });
});
