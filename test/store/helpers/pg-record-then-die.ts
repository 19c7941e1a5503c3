// Child process for postgres.test.ts: records N executions into a PostgreSQL history writer whose writes are held
// back (a flush interval far longer than the test), waits until its journal holds them, then dies by SIGKILL,
// as a crashed gateway would: no flush, no close.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { openPgHistoryWriter } from '../../../src/main/history/postgres';
import { makeExecution } from '../fixtures';

const [url, journal, count] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4])];
const recorder = await openPgHistoryWriter(url, { journal: { path: journal, intervalMs: 50 }, flushIntervalMs: 600_000, batchSize: 1_000_000 });
for (let i = 0; i < count; i++) recorder.recordExecution(makeExecution({ gateway: 'killed-gw', id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` }));

// Waits on the event itself: the journal file holding the records.
const file = () => readdirSync(dirname(journal)).find((n) => n.startsWith(`${basename(journal)}.journal-${process.pid}-`));
const poll = setInterval(() => {
  const name = file();
  if (!name || !existsSync(join(dirname(journal), name)) || statSync(join(dirname(journal), name)).size === 0) return;
  // All N lines: the journal writes records as they come of age (three quarters of an interval), so a slow start can split
  // them over ticks, and a kill after the first tick would lose records no journal promised to hold yet.
  if (readFileSync(join(dirname(journal), name), 'utf8').split('\n').length - 1 < count) return;
  clearInterval(poll);
  process.stdout.write(`${JSON.stringify({ written: recorder.stats().written })}\n`, () => process.kill(process.pid, 'SIGKILL'));
}, 10);
