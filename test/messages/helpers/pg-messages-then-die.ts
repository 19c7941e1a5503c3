// Child process for test/messages/postgres.test.ts: records N executions, each with three captured messages,
// into a PostgreSQL history writer whose writes are held back (a flush interval far longer than the test), waits
// until its journal holds every record, then dies by SIGKILL, as a crashed gateway would: no flush, no close.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { openPgHistoryWriter } from '../../../src/main/history/postgres';
import { makeExecution } from '../../store/fixtures';
import { killedGatewayMessages } from './killed-gateway';

const [url, journal, count] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4])];
const recorder = await openPgHistoryWriter(url, { journal: { path: journal, intervalMs: 50 }, flushIntervalMs: 600_000, batchSize: 1_000_000 });
for (let i = 0; i < count; i++) {
  const execution = makeExecution({ gateway: 'killed-gw', id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` });
  recorder.recordExecution(execution);
  for (const m of killedGatewayMessages(i, execution.id)) recorder.recordMessage(m);
}
const records = count * 4;

// Waits on the event itself: the journal file holding every record.
const file = () => readdirSync(dirname(journal)).find((n) => n.startsWith(`${basename(journal)}.journal-${process.pid}-`));
const poll = setInterval(() => {
  const name = file();
  if (!name || !existsSync(join(dirname(journal), name)) || statSync(join(dirname(journal), name)).size === 0) return;
  if (readFileSync(join(dirname(journal), name), 'utf8').split('\n').length - 1 < records) return;
  clearInterval(poll);
  process.stdout.write(`${JSON.stringify({ written: recorder.stats().written })}\n`, () => process.kill(process.pid, 'SIGKILL'));
}, 10);
