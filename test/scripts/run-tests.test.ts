// scripts/run-tests.mjs, the runner behind `npm test`, on a suite whose tests pass only on a retry
// (test/fixtures/retry-runner): every retried test is named above the final line, a test that
// needed more than one retry fails the run and counts as failed, and the plain summary stays last.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../app/helpers';

function runTests(...extra: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'ic-retry-fixture-'));
  try {
    const r = spawnSync(process.execPath, ['scripts/run-tests.mjs', '--config', 'test/fixtures/retry-runner/vitest.config.ts', ...extra], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, IC_RETRY_FIXTURE_DIR: dir, CI: '1' },
    });
    return { code: r.status, lines: r.stdout.trimEnd().split('\n') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

it('names each retried test, fails the run on a test that needed two retries, and ends with the counts', () => {
  const { code, lines } = runTests();
  expect(lines).toContain('flaky: retries.fixture.ts > passes on retry 1 (passed on retry 1)');
  expect(lines).toContain('too flaky: retries.fixture.ts > passes on retry 2 (passed on retry 2; more than 1 retry fails the run)');
  expect(lines.at(-1)).toBe('2 passed, 1 failed, 0 skipped');
  expect(code).toBe(1);
}, 120_000);

it('passes a run whose tests needed at most one retry, still naming them', () => {
  const { code, lines } = runTests('-t', 'steady|passes on retry 1');
  expect(lines).toContain('flaky: retries.fixture.ts > passes on retry 1 (passed on retry 1)');
  expect(lines.at(-1)).toBe('2 passed, 0 failed, 1 skipped');
  expect(code).toBe(0);
}, 120_000);
