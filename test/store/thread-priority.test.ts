// The writer thread runs at a lower priority than the gateway (Linux: per-thread nice), so that
// recording takes idle CPU, not CPU a request is waiting for. The process itself stays as it was.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteHistoryWriter } from '../../src/main/history/sqlite';
import { WRITER_THREAD_NICE } from '../../src/main/history/sqlite/writer/thread-priority';
import { makeExecution, tempDir } from './fixtures';

/** Nice value of each thread of this process (field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${process.pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
      // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      nices.set(Number(tid), Number(fields[16]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return nices;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe.skipIf(process.platform !== 'linux')('writer thread priority', () => {
  it('lowers only the writer thread', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const before = threadNices();
    const recorder = SqliteHistoryWriter.open(join(t.dir, 'history.db'));
    cleanups.unshift(() => recorder.close());
    recorder.recordExecution(makeExecution());
    await recorder.flush();
    expect(recorder.stats()).toMatchObject({ writer: 'worker', written: 1 });
    const after = threadNices();
    const lowered = [...after].filter(([tid, nice]) => !before.has(tid) && nice === WRITER_THREAD_NICE);
    expect(lowered).toHaveLength(1);
    expect(after.get(process.pid)).toBe(before.get(process.pid));
  });
});
