// The built `interceptor-console conformance` command over the vendored suite, the extended
// fixtures, a deliberately broken fixture and bad folders.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'out/cli/index.js');

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'conformance', ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('interceptor-console conformance', () => {
  it('passes all 24 vendored fixtures', () => {
    const r = run('test/fixtures/conformance');
    expect(r.stdout).toContain('24/24 fixtures passed');
    expect(r.stdout.match(/^PASS /gm)).toHaveLength(24);
    expect(r.stdout).toContain('PASS protocol/chain-fail-open [SEP-2624/chain.fail-open]');
    expect(r.code).toBe(0);
  });

  it('passes every extended fixture', () => {
    const r = run('test/fixtures/conformance-extended');
    expect(r.stdout).not.toContain('FAIL');
    expect(r.stdout).toMatch(/^(\d+)\/\1 fixtures passed$/m);
    expect(r.code).toBe(0);
  });

  it('reports a broken fixture as FAIL with a reason, and exits 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ic-conf-'));
    cpSync(join(root, 'test/fixtures/conformance/fixtures/protocol/chain-validation-blocks.json'), join(dir, 'ok.json'));
    const fixture = JSON.parse(readFileSync(join(root, 'test/fixtures/conformance/fixtures/protocol/chain-fail-open.json'), 'utf8'));
    fixture.id = 'protocol/chain-fail-open-broken';
    delete fixture.interceptors[0].failOpen; // now fail-closed: the chain must deny, the fixture still says allow
    mkdirSync(join(dir, 'nested'));
    writeFileSync(join(dir, 'nested', 'broken.json'), JSON.stringify(fixture));
    writeFileSync(join(dir, 'nested', 'garbage.json'), '{ not json');
    writeFileSync(join(dir, 'manifest.json'), '{"fixtures": []}');
    const r = run(dir);
    expect(r.stdout).toContain('PASS protocol/chain-validation-blocks');
    expect(r.stdout).toMatch(/FAIL protocol\/chain-fail-open-broken \[SEP-2624\/chain.fail-open\]\n {2}step 1\/1 apply: decision: expected allow got deny/);
    expect(r.stdout).toMatch(/FAIL nested\/garbage\n {2}not valid JSON/);
    expect(r.stdout).toContain('1/3 fixtures passed');
    expect(r.code).toBe(1);
  });

  it('exits 2 with a clear message for a missing folder or one without fixtures', () => {
    const missing = run('test/fixtures/does-not-exist');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('does not exist');
    const empty = mkdtempSync(join(tmpdir(), 'ic-conf-empty-'));
    const none = run(empty);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no fixture JSON files found');
    const noArg = run();
    expect(noArg.code).toBe(2);
    expect(noArg.stderr).toContain('missing <dir>');
  });
});
