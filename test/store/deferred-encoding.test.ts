// Executions encoded by the writer thread (#26, deferred.ts): the recorder checks a record and hands the
// writer its JSON text; the writer encodes it. The stored form must be exactly what encoding on the caller
// gave (also read back from a journal or spill line, which holds its text inline), what the caller's checks
// refuse is still refused at hand-over, and one record the writer cannot encode is refused alone (kept in
// the dead-letter file) while the rest of its batch is written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExecutionRecord } from '../../src/shared/trace/execution';
import type { TraceStep } from '../../src/shared/trace/types';
import { encodeExecution } from '../../src/main/history/model/encode/encode';
import { deferExecution, fileLine, toStoredForm } from '../../src/main/history/model/encode/deferred';
import type { DeferredExecution, QueueItem } from '../../src/main/history/model/encode/encoded';
import { applyBatch } from '../../src/main/history/sqlite/writer/apply-batch';
import { keepRefused } from '../../src/main/history/sqlite/writer/dead-letter';
import type { WriterRequest } from '../../src/main/history/sqlite/writer/writer-protocol';
import { ExecutionInserter } from '../../src/main/history/sqlite/sql/inserter';
import { getExecutionRecord, openStore, SqliteHistoryWriter } from '../../src/main/history/sqlite';
import { makeExecution, tempDir } from './fixtures';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0)) await c();
});

function dbPath(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return join(t.dir, 'history.db');
}

/** What the history writer posts to its writer thread from now on (the posts still go through). */
function writerThreadPosts(): WriterRequest[] {
  const posted: WriterRequest[] = [];
  const post = Worker.prototype.postMessage;
  vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (this: Worker, message: unknown, transfer?: Parameters<Worker['postMessage']>[1]) {
    posted.push(message as WriterRequest);
    return post.call(this, message, transfer);
  });
  return posted;
}

/** Records with what a JSON round trip changes or drops: shared payload objects, NaN, Infinity, undefined, extras. */
function awkwardRecords(): ExecutionRecord[] {
  const shared = makeExecution({ outcome: 'mutated' });
  const odd = makeExecution({ outcome: 'allow' }) as ExecutionRecord & Record<string, unknown>;
  odd.requestTrace!.steps[0]!.priority = Number.NaN;
  odd.requestTrace!.steps[1]!.timeoutMs = Number.POSITIVE_INFINITY;
  odd.requestTrace!.steps[1]!.result = { ...odd.requestTrace!.steps[1]!.result!, payload: undefined } as TraceStep['result'];
  odd.requestTrace!.steps[2]!.startMs = Number.NaN;
  odd.target = undefined;
  odd.custom = { note: 'kept among the extras', when: new Date(0) };
  odd.simulated = 'yes' as unknown as boolean;
  const unparsable = makeExecution({ outcome: 'error', startedAt: 'yesterday, around noon' });
  const blocked = makeExecution({ outcome: 'blocked', text: 'my ssn is 078-05-1120' });
  const unicode = makeExecution({ text: 'naïve café \u{1F600} \ud800 lone surrogate' });
  return [shared, odd, unparsable, blocked, unicode];
}

describe('deferred execution encoding', () => {
  it('encodes to exactly what encoding on the caller gives', () => {
    for (const record of awkwardRecords()) {
      const deferred = deferExecution(record);
      expect(deferred.kind).toBe('execution-text');
      expect(toStoredForm(deferred)).toEqual(encodeExecution(record, deferred.receivedMs));
    }
  });

  it('goes into a journal or spill line with its text inline, and reads back to the same stored form', () => {
    for (const record of awkwardRecords()) {
      const deferred = deferExecution(record);
      const line = fileLine(deferred);
      expect(line.endsWith('}\n')).toBe(true);
      expect(line).toContain(deferred.text); // not escaped: no work on the gateway's thread
      const read = JSON.parse(line) as QueueItem;
      expect(read.kind).toBe('execution-record');
      expect(toStoredForm(read)).toEqual(encodeExecution(record, deferred.receivedMs));
    }
    const session = {
      kind: 'session',
      gateway: 'g',
      key: 'k',
      startedAt: 'now',
      clientInfoJson: null,
      principalJson: null,
      protocolVersion: null,
      transport: null,
      extraJson: null,
      bytes: 300,
    } as const;
    expect(JSON.parse(fileLine(session))).toEqual(session);
  });

  it('refuses at hand-over what the store cannot take, as encoding did', () => {
    const noId = { ...makeExecution(), id: '' };
    const badOutcome = { ...makeExecution(), outcome: 'maybe' } as unknown as ExecutionRecord;
    const bigint = { ...makeExecution(), requestReceived: { n: 1n } };
    const cyclic = makeExecution() as ExecutionRecord & { self?: unknown };
    cyclic.self = cyclic;
    for (const record of [noId, badOutcome, bigint, cyclic]) {
      expect(() => encodeExecution(record)).toThrow();
      expect(() => deferExecution(record)).toThrow();
    }
  });

  it('hands the writer thread one JSON text per execution, which lands as the record handed over', async () => {
    const path = dbPath();
    const posted = writerThreadPosts();
    const recorder = SqliteHistoryWriter.open(path, { writerThread: true });
    cleanups.unshift(() => recorder.close());
    const records = awkwardRecords().slice(2); // the ones a read-back gives back whole (no NaN, no undefined)
    for (const record of records) recorder.recordExecution(record);
    await recorder.flush();
    expect(recorder.stats()).toMatchObject({ written: records.length, rejected: 0, writer: 'worker' });

    const items = posted.flatMap((m) => (m.op === 'write' ? m.items : []));
    expect(items.map((i) => i.kind)).toEqual(records.map(() => 'execution-text'));
    expect(JSON.parse((items[0] as DeferredExecution).text)).toEqual(JSON.parse(JSON.stringify(records[0])));

    const store = openStore(path, { create: false });
    try {
      for (const record of records) expect(getExecutionRecord(store.db, record.id)).toEqual(JSON.parse(JSON.stringify(record)));
    } finally {
      store.close();
    }
  });

  it('encodes on the caller while the writer is behind (a full batch waits), where encoding overlaps its inserts', async () => {
    const path = dbPath();
    const posted = writerThreadPosts();
    const recorder = SqliteHistoryWriter.open(path, { writerThread: true, batchSize: 50 });
    cleanups.unshift(() => recorder.close());
    await recorder.flush(); // the thread is up
    for (let i = 0; i < 300; i++) recorder.recordExecution(makeExecution());
    await recorder.flush();
    expect(recorder.stats()).toMatchObject({ written: 300, rejected: 0 });
    const kinds = posted.flatMap((m) => (m.op === 'write' ? m.items.map((i) => i.kind) : []));
    expect(kinds).toHaveLength(300);
    // The first batch's worth is deferred (nothing waited); once a full batch waits, the rest are encoded here.
    expect(kinds.slice(0, 50).every((k) => k === 'execution-text')).toBe(true);
    expect(kinds.filter((k) => k === 'execution').length).toBeGreaterThanOrEqual(200);
  });

  it('refuses one execution the writer cannot encode, writes the rest of its batch, and keeps it in the dead-letter file', async () => {
    const path = dbPath();
    const store = openStore(path);
    cleanups.unshift(() => store.close());
    const good = [makeExecution(), makeExecution()];
    const broken: DeferredExecution = { kind: 'execution-text', uuid: 'not-a-record', text: '{"id":"x"}', receivedMs: Date.now(), bytes: 10 };
    const result = applyBatch(store.db, new ExecutionInserter(store.db), [deferExecution(good[0]!), broken, deferExecution(good[1]!)]);
    expect(result).toMatchObject({ ok: true, tally: { written: 2 }, refused: [{ index: 1, reason: expect.stringContaining('not encodable') }] });
    for (const record of good) expect(getExecutionRecord(store.db, record.id)?.id).toBe(record.id);

    // The dead-letter file keeps it as its text (it has no encoded form).
    const deadLetter = `${path}.rejected.jsonl`;
    expect(keepRefused(deadLetter, broken, result.ok ? result.refused[0]!.reason : '').ok).toBe(true);
    const kept = JSON.parse(readFileSync(deadLetter, 'utf8').trim()) as { reason: string; item: QueueItem };
    expect(kept).toMatchObject({
      reason: expect.stringContaining('not encodable'),
      item: { kind: 'execution-text', uuid: 'not-a-record', text: '{"id":"x"}' },
    });
  });
});
