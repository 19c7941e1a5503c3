// Runs Doyensec's electronegativity (Electron security checks) over src/ and fails on any finding that is
// not explained. A finding is explained by a comment within the 5 lines above it (or on its line) of the form
//   electronegativity-justified <CHECK_ID>: <why it is fine here>
// so every accepted finding carries its reason next to the code. Findings without a file location (global
// checks such as a missing navigation limit) cannot be justified this way: they always fail.
// Run: `npm run electronegativity` (also a step of .ci/run).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const bin = join(dirname(require.resolve('@doyensec/electronegativity/package.json')), 'dist', 'index.js');
const scanned = 'src';
const WINDOW = 5;

const dir = mkdtempSync(join(tmpdir(), 'ic-electronegativity-'));
try {
  const report = join(dir, 'report.sarif');
  // -e: judge against the Electron we ship (it cannot be detected without the runtime). The tool also tries to
  // download Electron's release list and translations; without network it says so and goes on.
  const run = spawnSync(process.execPath, [bin, '-i', scanned, '-r', '-e', pkg.devDependencies.electron, '-o', report], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
  });
  let sarif;
  try {
    sarif = JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    console.error(`electronegativity wrote no report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
    process.exit(1);
  }
  const results = sarif.runs?.[0]?.results ?? [];
  const unexplained = [];
  for (const r of results) {
    const where = r.locations?.[0]?.physicalLocation;
    const uri = where?.artifactLocation?.uri ?? '';
    const line = where?.region?.startLine ?? 0;
    const label = `${r.ruleId} at ${scanned}/${uri}:${line}`;
    if (!uri || uri.startsWith('file:') || uri === 'N/A' || line < 1) {
      unexplained.push(`${label} (no source location): ${r.message?.text ?? ''}`);
      continue;
    }
    const lines = readFileSync(join(root, scanned, uri), 'utf8').split('\n');
    const near = lines.slice(Math.max(0, line - 1 - WINDOW), line).join('\n');
    const reason = new RegExp(`electronegativity-justified ${r.ruleId}: (\\S.{9,})`).exec(near);
    if (reason) console.log(`justified  ${label}: ${reason[1].trim()}`);
    else unexplained.push(`${label}: ${r.message?.text ?? ''}`);
  }
  for (const u of unexplained) console.error(`UNEXPLAINED ${u}`);
  console.log(`electronegativity: ${results.length} finding(s), ${unexplained.length} unexplained`);
  process.exit(unexplained.length ? 1 : 0);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
