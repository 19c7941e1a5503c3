// Child process of the multi-process test: records N executions into a shared history file
// through the real recorder, in bursts, then prints its recorder stats as JSON.
// Usage: node --import tsx write-executions.ts DB COUNT PREFIX BASE_MS [BUSY_TIMEOUT_MS]
import { SqliteHistoryWriter } from '../../../src/main/history/sqlite';
import { makeExecution } from '../fixtures';

const [db, countText, prefix, baseText, busyText] = process.argv.slice(2);
const count = Number(countText);
const base = Number(baseText);
const recorder = SqliteHistoryWriter.open(db!, {
  batchSize: 50,
  flushIntervalMs: 5,
  backoff: { baseMs: 5, maxMs: 50 },
  ...(busyText ? { busyTimeoutMs: Number(busyText) } : {}),
});
for (let i = 0; i < count; i++) {
  // Both processes use the same start times, so they compete for the same execution keys too.
  const id = `${prefix}-${String(i).padStart(6, '0')}-0000-4000-8000-000000000000`;
  recorder.recordExecution(makeExecution({ id, gateway: prefix, startedAt: new Date(base + i).toISOString(), text: `${prefix} record ${i}` }));
  if (i % 100 === 99) await new Promise((r) => setImmediate(r));
}
await recorder.close();
console.log(JSON.stringify(recorder.stats()));
