// Child process for journal.test.ts: records N executions into a recorder whose database writes are held
// back (a flush interval far longer than the test), waits until the journal wrote them, then dies by
// SIGKILL, as a crashed gateway would: no flush, no close.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SqliteHistoryWriter } from '../../../src/main/history/sqlite';
import { makeExecution } from '../fixtures';

const [db, count] = [process.argv[2]!, Number(process.argv[3])];
const recorder = SqliteHistoryWriter.open(db, { journal: true, journalIntervalMs: 50, flushIntervalMs: 600_000, batchSize: 1_000_000 });
for (let i = 0; i < count; i++) recorder.recordExecution(makeExecution({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` }));

// Waits on the event itself: the journal file holding all N lines.
const journal = () => readdirSync(dirname(db)).find((n) => n.startsWith(`${basename(db)}.journal-${process.pid}-`));
const poll = setInterval(() => {
  const name = journal();
  // All N lines: the journal writes records as they come of age (three quarters of an interval), so a slow start can split them over ticks.
  if (!name || !existsSync(join(dirname(db), name)) || statSync(join(dirname(db), name)).size === 0) return;
  if (readFileSync(join(dirname(db), name), 'utf8').split('\n').length - 1 < count) return;
  clearInterval(poll);
  process.stdout.write(`${JSON.stringify({ written: recorder.stats().written })}\n`, () => process.kill(process.pid, 'SIGKILL'));
}, 10);
