// scripts/electron-sqlite.mjs (`npm run electron:sqlite`, run by `npm start` before the desktop app): the
// better-sqlite3 addon for the installed Electron, kept beside Node's build. What it builds for comes from
// the installed electron package (version and ABI); the download and compile themselves need the internet
// and Electron's headers, so only their arguments are checked here, and nothing under `npm test` runs it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { electronTarget, nodeGypArgs, prebuildArgs } from '../../scripts/electron-sqlite.mjs';
import { electronBindingPath } from '../../src/main/native/sqlite-binding';
import { root } from '../e2e/harness';

const work = mkdtempSync(join(tmpdir(), 'ic-electron-sqlite-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function checkoutWithElectron(version: string, abi?: string): string {
  const dir = mkdtempSync(join(work, 'checkout-'));
  mkdirSync(join(dir, 'node_modules', 'electron'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', 'electron', 'package.json'), JSON.stringify({ name: 'electron', version }));
  if (abi) writeFileSync(join(dir, 'node_modules', 'electron', 'abi_version'), `${abi}\n`);
  return dir;
}

describe('the Electron copy of better-sqlite3', () => {
  it('targets the installed electron package: its version, its ABI, native/electron-<abi>/ of the checkout', () => {
    const dir = checkoutWithElectron('45.5.0', '150');
    const target = electronTarget(dir, { platform: 'linux', arch: 'x64' });
    expect(target).toMatchObject({ version: '45.5.0', abi: '150', platform: 'linux', arch: 'x64' });
    // Where the Electron main entry looks for it (src/main/native/sqlite-binding.ts).
    expect(target.binding).toBe(electronBindingPath(dir, 150));
    expect(target.binding).toBe(join(dir, 'native', 'electron-150', 'better_sqlite3.node'));
  });

  it('in this checkout: the electron version package.json pins', () => {
    const pinned = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.electron;
    const target = electronTarget(root);
    expect(target.version).toBe(pinned);
    expect(target.abi).toMatch(/^\d+$/);
    expect(target.binding.startsWith(join(root, 'native', 'electron-'))).toBe(true);
    // Never the Node build's place: npm test keeps loading that one.
    expect(target.binding).not.toContain(join('better-sqlite3', 'build'));
  });

  it('says what is wrong when electron is not installed', () => {
    expect(() => electronTarget(mkdtempSync(join(work, 'bare-')))).toThrow(/Electron is not installed .*run `npm ci` first/);
  });

  it('fetches with prebuild-install for the Electron runtime, else compiles against Electron’s headers', () => {
    const target = electronTarget(checkoutWithElectron('45.5.0', '150'), { platform: 'linux', arch: 'arm64' });
    expect(prebuildArgs(target, '/tmp/copy')).toEqual([
      '--runtime',
      'electron',
      '--target',
      '45.5.0',
      '--arch',
      'arm64',
      '--platform',
      'linux',
      '--path',
      '/tmp/copy',
    ]);
    expect(nodeGypArgs(target)).toEqual([
      'rebuild',
      '--release',
      '--target=45.5.0',
      '--arch=arm64',
      '--runtime=electron',
      '--dist-url=https://electronjs.org/headers',
    ]);
  });

  it('is not run by npm test (nor by install): only `npm run electron:sqlite` and `npm start` run it', () => {
    const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['electron:sqlite']).toBe('node scripts/electron-sqlite.mjs');
    for (const name of ['test', 'pretest', 'posttest', 'install', 'postinstall', 'prepare']) expect(scripts[name] ?? '').not.toContain('electron-sqlite');
    expect(readFileSync(join(root, 'scripts', 'run-tests.mjs'), 'utf8')).not.toContain('electron-sqlite');
    // Importing it (as this test did) ran nothing: no native/ folder appeared in the checkout for this run.
    expect(readFileSync(join(root, '.gitignore'), 'utf8')).toMatch(/^\/native\/$/m);
  });
});
