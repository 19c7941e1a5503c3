// RecorderWithLiveUpdates announces rows only once they are readable. A record that arrives while the
// recorder flushes is not in that flush: announcing it with the flush's rows let a live list refresh before
// its row was committed, and since its count was spent, no later event brought it in (traffic.test.ts
// "shows traffic live" saw 2 of 3 rows in a clean-clone CI run). The inner recorder here is the real SQLite
// history writer; only its flush is held, as a slow commit on a loaded machine holds it.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { SqliteHistoryWriter } from '../../src/main/history/sqlite';
import { RecorderWithLiveUpdates } from '../../src/main/services/recorder-with-live-updates';
import type { ApiEvent } from '../../src/shared/api/events';
import { makeExecution, tempDir } from '../store/fixtures';

const dirs: Array<() => void> = [];
afterEach(() => dirs.splice(0).forEach((c) => c()));

describe('RecorderWithLiveUpdates', () => {
  it('announces a record that arrived during a flush after the flush that writes it', async () => {
    const t = tempDir();
    dirs.push(t.cleanup);
    const writer = SqliteHistoryWriter.open(join(t.dir, 'h.db'), { writerThread: false });
    let release!: () => void;
    let held = true;
    const flush = writer.flush.bind(writer);
    writer.flush = async () => {
      if (held) {
        held = false;
        await new Promise<void>((r) => (release = r));
      }
      return flush();
    };
    const events: ApiEvent[] = [];
    const live = new RecorderWithLiveUpdates(writer, (e) => events.push(e), 10);
    const news = () => events.filter((e) => e.type === 'executions.new').map((e) => (e as { count: number }).count);
    try {
      live.recordExecution(makeExecution({ gateway: 'g' }));
      await expect.poll(() => typeof release === 'function').toBe(true); // the first flush has started and waits
      live.recordExecution(makeExecution({ gateway: 'g' })); // during that flush
      release();
      await expect.poll(news).toEqual([1, 1]); // one for each flush, never 2 for the first
    } finally {
      await live.close();
    }
  });
});
