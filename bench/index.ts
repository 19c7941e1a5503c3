// `npm run bench`: every bench of the project, one after another, each printing ratios measured
// side by side in the same run. Add a bench by adding one entry below.
import { run as runChaosBench } from './chaos';
import { runEngineBench } from './engine';
import { run as runGatewayBench } from './gateway';
import { run as runMessagesBench } from './messages';
import { run as runOtelBench } from './otel';
import { run as runPathBench } from './path';
import { run as runPathAbBench } from './path-ab';
import { run as runPostgresBench } from './postgres';
import { run as runPostgresMessagesBench } from './postgres-messages';
import { run as runRegexBench } from './regex';
import { run as runStoreBench } from './store';
import { run as runTrafficUiBench } from './traffic-ui';

const benches: { name: string; run: () => Promise<void> }[] = [
  { name: 'engine', run: runEngineBench },
  { name: 'gateway', run: runGatewayBench },
  // The path's cost against a bare relay (A/A row included): [path-speed]'s table.
  { name: 'path', run: runPathBench },
  // Two builds' CPU per call on one row, fresh process trees alternated (BENCH_AB_BASELINE; skipped without it).
  { name: 'path-ab', run: runPathAbBench },
  { name: 'otel', run: runOtelBench },
  { name: 'store', run: runStoreBench },
  // Starts a throwaway PostgreSQL (or uses BENCH_PG_URL); loads 1M executions into it once (minutes).
  { name: 'postgres', run: runPostgresBench },
  // Samples on adversarial input, 1 MB vs 64 KB: every ratio must stay linear (issue 15).
  { name: 'regex', run: runRegexBench },
  { name: 'chaos', run: runChaosBench },
  // Needs `npm run build` (renderer) and Chromium; generates a 1M-execution database once (minutes).
  { name: 'traffic-ui', run: () => runTrafficUiBench() },
  // Generates a 1M-message database once (about two minutes); the Chromium part needs `npm run build`.
  { name: 'messages', run: () => runMessagesBench() },
  // The Messages view's queries on PostgreSQL next to SQLite: copies the 1M messages of 'messages' into it (minutes).
  { name: 'postgres-messages', run: () => runPostgresMessagesBench() },
];

const only = process.argv.slice(2);
for (const b of benches) {
  if (only.length && !only.includes(b.name)) continue;
  console.log(`\n=== bench: ${b.name} ===`);
  await b.run();
}
