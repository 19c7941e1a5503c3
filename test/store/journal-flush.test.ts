// The journal empties its file only when no fdatasync of it is running: truncating pages under writeback
// waits for the disk on the gateway's thread. With the flush held open, committing everything must not
// truncate; the truncate follows when the flush ends (and not while a second flush for newer lines runs).
import { readFileSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EncodedItem } from '../../src/main/history/model/encode/encoded';
import { Journal, type JournalFs } from '../../src/main/history/model/recording/journal';
import { tempDir } from './fixtures';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const item = (uuid: string) => ({ kind: 'message', uuid }) as unknown as EncodedItem;

/** fdatasync calls wait until the test ends them; every call is logged in order. */
function heldFs() {
  const log: string[] = [];
  const flushes: ((err: NodeJS.ErrnoException | null) => void)[] = [];
  const fs: JournalFs = {
    fdatasync(_fd, done) {
      log.push('fdatasync');
      flushes.push(done);
    },
    ftruncateSync(fd, len) {
      log.push('ftruncate');
      ftruncateSync(fd, len);
    },
  };
  const endFlush = () => flushes.shift()!(null);
  return { fs, log, endFlush, pending: () => flushes.length };
}

describe('the journal and its flush', () => {
  it('does not truncate its file while a flush of it runs, and empties it once the flush ends', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const errors: string[] = [];
    const held = heldFs();
    const journal = new Journal(join(t.dir, 'history.db'), 10_000, (m) => errors.push(m), held.fs);
    try {
      const a = item('a');
      journal.add(a);
      journal.write(); // appends 'a' and starts its flush
      expect(held.log).toEqual(['fdatasync']);
      journal.committed([a]); // everything is in the database, but the flush still runs
      expect(held.log).toEqual(['fdatasync']);
      expect(readFileSync(journal.path, 'utf8')).toContain('"a"');

      // A newer record written during the flush: its own flush follows, and nothing is emptied meanwhile.
      const b = item('b');
      journal.add(b);
      journal.write();
      held.endFlush();
      expect(held.log).toEqual(['fdatasync', 'fdatasync']);
      journal.committed([b]);
      expect(held.log).toEqual(['fdatasync', 'fdatasync']);

      held.endFlush();
      expect(held.log).toEqual(['fdatasync', 'fdatasync', 'ftruncate']);
      expect(readFileSync(journal.path, 'utf8')).toBe('');
      expect(held.pending()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      journal.close();
    }
  });

  it('empties at once when no flush runs', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const held = heldFs();
    const journal = new Journal(join(t.dir, 'history.db'), 10_000, () => undefined, held.fs);
    try {
      const a = item('a');
      journal.add(a);
      journal.write();
      held.endFlush();
      journal.committed([a]);
      expect(held.log).toEqual(['fdatasync', 'ftruncate']);
      expect(readFileSync(journal.path, 'utf8')).toBe('');
    } finally {
      journal.close();
    }
  });
});
