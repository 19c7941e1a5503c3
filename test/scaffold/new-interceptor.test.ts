// [chain-tests]: `interceptor-console new interceptor <name>` scaffolds a project that passes its own test,
// the conformance fixtures and its chain tests from a fresh directory, and type-checks against the host
// SDK's declarations. The project's node_modules are links into this checkout (what `npm install` would
// put there: interceptor-console as a file: dependency, tsx, typescript), so the test needs no network.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../gateway/helpers';

const root = resolve(__dirname, '../..');

function run(command: string, args: string[], cwd: string) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('interceptor-console new interceptor', () => {
  const parent = mkdtempSync(join(tmpdir(), 'ic-scaffold-'));
  const dir = join(parent, 'block-words');

  beforeAll(() => {
    const created = run(process.execPath, [cliPath, 'new', 'interceptor', 'block-words', '--dir', dir], parent);
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    const modules = join(dir, 'node_modules');
    mkdirSync(join(modules, '@types'), { recursive: true });
    symlinkSync(root, join(modules, 'interceptor-console'), 'dir');
    for (const pkg of ['tsx', 'typescript', '@types/node']) symlinkSync(join(root, 'node_modules', pkg), join(modules, pkg), 'dir');
  }, 60_000);

  it('writes the project: interceptor, server, test, gateway config, chain test cases, fixtures, scripts', () => {
    for (const f of [
      'src/interceptor.ts',
      'src/server.ts',
      'test/interceptor.test.ts',
      'gateway.json',
      'gateway.tests/blocked.json',
      'conformance/manifest.json',
    ]) {
      expect(existsSync(join(dir, f)), f).toBe(true);
    }
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; scripts: Record<string, string> };
    expect(pkg.dependencies['interceptor-console']).toBe(`file:${root}`);
    expect(pkg.scripts.check).toBe('npm test && npm run conformance && npm run chain-test');
  });

  it('passes its own test', () => {
    const t = run(process.execPath, ['--import', 'tsx', '--test', 'test/interceptor.test.ts'], dir);
    expect(t.out).toMatch(/# pass 3\n# fail 0/);
    expect(t.code).toBe(0);
  });

  it('passes the conformance fixtures', () => {
    const c = run(process.execPath, [cliPath, 'conformance', 'conformance'], dir);
    expect(c.out).toMatch(/(\d+)\/\1 fixtures passed/);
    expect(c.code).toBe(0);
  });

  it('passes its chain tests, its server started over stdio by the chain', () => {
    const c = run(process.execPath, [cliPath, 'test', '--config', 'gateway.json'], dir);
    expect(c.out).toContain('2 passed, 0 failed, 0 could not run');
    expect(c.code).toBe(0);
  });

  it('fails its chain tests when the interceptor stops blocking', () => {
    const source = join(dir, 'src/interceptor.ts');
    const original = readFileSync(source, 'utf8');
    writeFileSync(source, original.replace("defaultConfig: { blocked: ['forbidden'] }", "defaultConfig: { blocked: ['nothing-matches-this'] }"));
    try {
      const c = run(process.execPath, [cliPath, 'test', '--config', 'gateway.json'], dir);
      expect(c.out).toMatch(/FAIL {2}a forbidden word is blocked/);
      expect(c.code).toBe(1);
    } finally {
      writeFileSync(source, original);
    }
  });

  it('type-checks against the host SDK declarations', () => {
    const t = run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], dir);
    expect(t.out + t.err).toBe('');
    expect(t.code).toBe(0);
  });

  it('installs with npm and passes `npm run check` (its test, the conformance fixtures, its chain tests) in a fresh folder', () => {
    const fresh = join(parent, 'fresh');
    expect(run(process.execPath, [cliPath, 'new', 'interceptor', 'guard', '--dir', fresh], parent).code).toBe(0);
    // The packages come from the npm cache `npm ci` filled (the registry when missing there); interceptor-console is linked.
    const install = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], fresh);
    expect(install.code, install.err).toBe(0);
    const check = run('npm', ['run', 'check'], fresh);
    expect(check.code, check.out + check.err).toBe(0);
    expect(check.out).toMatch(/# pass 3/);
    expect(check.out).toMatch(/(\d+)\/\1 fixtures passed/);
    expect(check.out).toContain('2 passed, 0 failed, 0 could not run');
  }, 180_000);

  it('refuses a bad name and a folder that is not empty, writing nothing', () => {
    const bad = run(process.execPath, [cliPath, 'new', 'interceptor', 'Bad_Name', '--dir', join(parent, 'bad')], parent);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('not a usable interceptor name');
    expect(existsSync(join(parent, 'bad'))).toBe(false);
    const again = run(process.execPath, [cliPath, 'new', 'interceptor', 'block-words', '--dir', dir], parent);
    expect(again.code).toBe(2);
    expect(again.err).toContain('is not empty');
    expect(run(process.execPath, [cliPath, 'new', 'widget', 'x'], parent).code).toBe(2);
  });
});
