// The journal writes a record once it is three quarters of an interval old, on a tick every quarter interval:
// within one interval of being accepted it is on disk, but a record the writer commits sooner is never
// serialized for the journal (writing everything waiting at each tick journaled the fresh records of every
// batch too, and half an interval those of every batch that waited for the flush timer).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EncodedItem } from '../../src/main/history/model/encode/encoded';
import { Journal } from '../../src/main/history/model/recording/journal';
import { tempDir } from './fixtures';
import { waitFor } from '../support/wait-for';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const item = (uuid: string) => ({ kind: 'message', uuid }) as unknown as EncodedItem;
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { uuid: string }).uuid);

describe('the journal writes records by age', () => {
  it('journals an old record at its tick but not one accepted just before it, then that one within an interval', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const errors: string[] = [];
    // The journal reads ages from performance.now(): a clock this test moves makes the ages exact whatever
    // the machine's load (a busy-wait before made a stall of the test's thread journal the fresh one too).
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    cleanups.push(() => clock.mockRestore());
    const journal = new Journal(join(t.dir, 'history.db'), 400, (m) => errors.push(m));
    try {
      journal.add(item('old'));
      now = 390; // nearly an interval later, a fresh one: the tick (real time, every 100 ms) writes only the old one
      journal.add(item('fresh'));
      await waitFor(() => lines(journal.path).length >= 1, 20_000, 'the old record in the journal', 10);
      await new Promise((resolve) => setTimeout(resolve, 450)); // four more ticks with the clock still: nothing more
      expect(lines(journal.path)).toEqual(['old']);
      now = 590; // the fresh one is half an interval old: not yet
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(lines(journal.path)).toEqual(['old']);
      now = 690; // three quarters of an interval old: the next tick writes it
      await waitFor(() => lines(journal.path).length >= 2, 20_000, 'the fresh record in the journal', 10);
      expect(lines(journal.path)).toEqual(['old', 'fresh']);
      // Committed before it was old enough: never journaled.
      const quick = item('quick');
      journal.add(quick);
      journal.committed([quick]);
      expect(errors).toEqual([]);
    } finally {
      journal.close();
    }
  });
});
