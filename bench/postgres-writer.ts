// One "gateway process" of the PostgreSQL many-writers bench: records `count` synthetic executions (ids
// from `offset`) through the PostgreSQL history writer as fast as it keeps up, then prints its start and end
// times (epoch ms) as JSON. Run by bench/postgres.ts, several at once.
import { openPgHistoryWriter } from '../src/main/history/postgres';
import { records } from './store';

const [url, countText, offsetText, host] = process.argv.slice(2);
const count = Number(countText);
const offset = Number(offsetText);
const recs = records(count).map((r, i) => ({ ...r, id: `00000000-0000-4000-a000-${(offset + i).toString(16).padStart(12, '0')}`, gateway: `gateway-${host}` }));
const recorder = await openPgHistoryWriter(url!, { host: host ?? 'bench' });
const start = Date.now();
for (let i = 0; i < recs.length; i += 1000) {
  while (recorder.stats().queued > 4000) await new Promise((r) => setTimeout(r, 1));
  for (const rec of recs.slice(i, i + 1000)) recorder.recordExecution(rec);
}
await recorder.flush();
const end = Date.now();
const stats = recorder.stats();
await recorder.close();
process.stdout.write(`${JSON.stringify({ start, end, written: stats.written, failed: stats.failed })}\n`);
