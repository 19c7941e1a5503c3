// The writer thread's checkpointer (history/sqlite/writer/checkpointer.ts) on a real file: the frames waiting
// in the WAL as the wal-index says them; once the checkpointer runs, the writer's connection checkpoints no
// more and the database file still receives the WAL's pages (only the checkpointer's connection can have
// copied them), and not before the WAL holds the frames it waits for; if it dies the writer checkpoints
// again; closed, it ends before the writer, which then removes the WAL; one that cannot start changes
// nothing. And through the recorder: every record written, no WAL left after close.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeExecution } from '../../src/main/history/model/encode/encode';
import { countExecutions, openStore, SqliteHistoryWriter, type Store } from '../../src/main/history/sqlite';
import { ExecutionInserter } from '../../src/main/history/sqlite/sql/inserter';
import { WAL_AUTOCHECKPOINT_PAGES } from '../../src/main/history/sqlite/open/open-store';
import { CheckpointerLink } from '../../src/main/history/sqlite/writer/checkpointer';
import { writerThreadEntry } from '../../src/main/history/sqlite/writer/worker-batch-writer';
import { WalFrames } from '../../src/main/history/sqlite/writer/wal-frames';
import { makeExecution, tempDir } from './fixtures';
import { waitFor } from '../support/wait-for';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function newStore(): Store {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const store = openStore(join(t.dir, 'history.db'));
  cleanups.unshift(() => store.close());
  return store;
}

/** Writes `n` executions in one transaction, as the writer thread does a batch, and tells the link. */
function writeBatch(store: Store, inserter: ExecutionInserter, link: CheckpointerLink, n: number): void {
  store.db
    .transaction(() => {
      inserter.beginBatch();
      for (let i = 0; i < n; i++) inserter.write(encodeExecution(makeExecution({ text: `batch row ${i} ${'x'.repeat(2000)}` })));
      inserter.endBatch();
    })
    .immediate();
  link.committed(n);
}

function autocheckpoint(store: Store): number {
  return store.db.pragma('wal_autocheckpoint', { simple: true }) as number;
}

/** A store, its inserter and a link whose checkpointer has started (it starts after the first item). */
async function startedLink(checkpointAtFrames: number): Promise<{ store: Store; inserter: ExecutionInserter; link: CheckpointerLink }> {
  const store = newStore();
  const inserter = new ExecutionInserter(store.db);
  const link = new CheckpointerLink(writerThreadEntry(), store.path, store.db, 1, checkpointAtFrames);
  cleanups.unshift(() => link.close());
  await writeUntilActive(store, inserter, link, 1, 'the checkpointer to start');
  return { store, inserter, link };
}

/** Batches of `items` until the link's checkpointer has said it is ready (it answers between commits). */
async function writeUntilActive(store: Store, inserter: ExecutionInserter, link: CheckpointerLink, items: number, what: string): Promise<void> {
  await waitFor(
    () => {
      writeBatch(store, inserter, link, items);
      return link.active;
    },
    30_000,
    what,
    50,
  );
}

function worker(link: CheckpointerLink): Worker | undefined {
  return (link as unknown as { worker?: Worker }).worker;
}

describe('WAL frames from the wal-index', () => {
  it('reads the frames a checkpoint would copy, and none once they are copied', () => {
    const store = newStore();
    store.db.pragma('wal_autocheckpoint = 0');
    const frames = WalFrames.open(store.path)!;
    cleanups.unshift(() => frames.close());
    const inserter = new ExecutionInserter(store.db);
    for (let i = 0; i < 30; i++) inserter.write(encodeExecution(makeExecution({ text: `frames ${i} ${'z'.repeat(3000)}` })));
    const pending = frames.pending()!;
    expect(pending).toBeGreaterThan(30);
    const [result] = store.db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    expect(result!.log).toBe(pending);
    expect(result!.checkpointed).toBe(pending);
    expect(frames.pending()).toBe(0);
    expect(WalFrames.open(join(store.path, 'absent.db'))).toBeUndefined();
  });
});

describe('WAL checkpointer thread', () => {
  it('takes the checkpoints over once started: the writer stops checkpointing and the file still receives the pages', async () => {
    const store = newStore();
    const inserter = new ExecutionInserter(store.db);
    const link = new CheckpointerLink(writerThreadEntry(), store.path, store.db, 10, 60);
    cleanups.unshift(() => link.close());
    writeBatch(store, inserter, link, 5);
    expect(worker(link)).toBeUndefined(); // not before startAfterItems
    await writeUntilActive(store, inserter, link, 5, 'the checkpointer to say it is ready');
    expect(autocheckpoint(store)).toBe(0);
    const before = statSync(store.path).size;
    // Only the checkpointer can move pages from the WAL into the file now.
    await waitFor(
      () => {
        writeBatch(store, inserter, link, 20);
        return statSync(store.path).size > before + 40 * 4096;
      },
      20_000,
      'the database file to grow by checkpoints',
      50,
    );
    expect(autocheckpoint(store)).toBe(0);
    expect(countExecutions(store.db)).toBeGreaterThan(40);
  });

  it('checkpoints no sooner than the WAL holds the frames it waits for', async () => {
    const { store, inserter, link } = await startedLink(1_000_000);
    const frames = WalFrames.open(store.path)!;
    cleanups.unshift(() => frames.close());
    const before = { size: statSync(store.path).size, pending: frames.pending()! };
    for (let i = 0; i < 10; i++) writeBatch(store, inserter, link, 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(frames.pending()).toBeGreaterThan(before.pending + 40);
    expect(statSync(store.path).size).toBe(before.size);
  });

  it('keeps the WAL from growing without end while batches keep coming: the writer lets it start over', async () => {
    const { store, inserter, link } = await startedLink(20);
    const frames = WalFrames.open(store.path)!;
    cleanups.unshift(() => frames.close());
    let longest = 0;
    let restarts = 0;
    let appended = 0;
    let previous = frames.read()!.last;
    for (let i = 0; i < 200; i++) {
      writeBatch(store, inserter, link, 3); // back to back, as in bulk: the checkpointer never catches up alone
      const { last } = frames.read()!;
      if (last < previous) restarts++;
      appended += last >= previous ? last - previous : last;
      longest = Math.max(longest, last);
      previous = last;
    }
    // Without the writer's own checkpoint the WAL would never start over: longest would be all it appended.
    // With it the WAL starts over at 2 × 20 frames, or a few batches later when a checkpoint was busy.
    expect(restarts).toBeGreaterThan(2);
    expect(longest).toBeLessThan(appended / 3);
  });

  it('hands the checkpoints back to the writer when the thread dies, and ends before the writer closes', async () => {
    const { store, inserter, link } = await startedLink(1);
    await worker(link)!.terminate();
    await waitFor(() => !link.active, 5000, 'the link to see the thread gone');
    expect(autocheckpoint(store)).toBe(WAL_AUTOCHECKPOINT_PAGES);
    writeBatch(store, inserter, link, 2); // no second thread is started
    expect(worker(link)).toBeUndefined();

    // A second link, closed: its thread ends first, then the writer's close (the last connection) removes the WAL.
    const { store: other, link: second } = await startedLink(1);
    const thread = worker(second)!;
    const exited = new Promise<number>((resolve) => thread.once('exit', resolve));
    await second.close();
    expect(await exited).toBe(0);
    other.close();
    expect(existsSync(`${other.path}-wal`)).toBe(false);
  });

  it('changes nothing when its thread cannot start', async () => {
    const store = newStore();
    const inserter = new ExecutionInserter(store.db);
    const broken = { script: 'throw new Error("no checkpointer here")', eval: true };
    const link = new CheckpointerLink(broken, store.path, store.db, 1, 1);
    cleanups.unshift(() => link.close());
    writeBatch(store, inserter, link, 2);
    expect(worker(link)).toBeDefined();
    await waitFor(
      () => {
        writeBatch(store, inserter, link, 1);
        return worker(link) === undefined;
      },
      30_000,
      'the failed checkpointer to be dropped',
      50,
    );
    expect(link.active).toBe(false);
    expect(autocheckpoint(store)).toBe(WAL_AUTOCHECKPOINT_PAGES);
  });
});

describe('recorder with a checkpointer', () => {
  it('writes every record and leaves no WAL after close', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const path = join(t.dir, 'history.db');
    const recorder = SqliteHistoryWriter.open(path, { writerThread: true, checkpointerAfterItems: 10, flushIntervalMs: 5, batchSize: 50 });
    for (let i = 0; i < 600; i++) {
      recorder.recordExecution(makeExecution({ text: `recorded ${i} ${'y'.repeat(1000)}` }));
      if (i % 50 === 49) await recorder.flush();
    }
    await recorder.flush();
    expect(recorder.stats().written).toBe(600);
    await recorder.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    const store = openStore(path, { create: false });
    try {
      expect(countExecutions(store.db)).toBe(600);
    } finally {
      store.close();
    }
  });
});
