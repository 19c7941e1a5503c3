// `npm start`'s choice between the desktop app and web mode (scripts/start-mode.mjs), with Electron's
// installer stood in by small scripts (the real one needs the internet): runtime present (no download),
// download succeeds (the desktop app), download fails (web mode, saying why), no display (web mode, no
// download). Then the real scripts/start.mjs on a "desktop" whose download fails: the installer's progress
// is shown, web mode starts with the reason and prints its URL.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseStartMode, INSTALLER_ENV, SQLITE_SCRIPT_ENV } from '../../scripts/start-mode.mjs';
import { root } from '../e2e/harness';

const work = mkdtempSync(join(tmpdir(), 'ic-start-mode-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
/** A checkout with the desktop app built (out/main/index.js) and an empty electron package folder. */
function checkout() {
  const dir = join(work, `case-${++n}`);
  mkdirSync(join(dir, 'out', 'main'), { recursive: true });
  writeFileSync(join(dir, 'out', 'main', 'index.js'), '');
  const electronDir = join(dir, 'node_modules', 'electron');
  mkdirSync(electronDir, { recursive: true });
  return { dir, electronDir, ranMarker: join(dir, 'installer-ran') };
}

/** What install.js leaves behind: path.txt naming the executable under dist/. */
function writeRuntime(electronDir: string) {
  mkdirSync(join(electronDir, 'dist'), { recursive: true });
  writeFileSync(join(electronDir, 'dist', 'electron'), '#!/bin/sh\n');
  chmodSync(join(electronDir, 'dist', 'electron'), 0o755);
  writeFileSync(join(electronDir, 'path.txt'), 'electron');
}

/** A stand-in for node_modules/electron/install.js: prints progress, then installs the runtime or fails like it does offline. */
function standInInstaller(outcome: 'succeeds' | 'fails'): string {
  const file = join(work, `installer-${outcome}.cjs`);
  writeFileSync(
    file,
    `const fs = require('node:fs'), path = require('node:path');
fs.writeFileSync(process.env.STANDIN_MARKER, 'ran');
console.log('Downloading electron-v45.5.0-linux-x64.zip: 37%');
${
  outcome === 'succeeds'
    ? `const dir = process.env.STANDIN_ELECTRON_DIR;
fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
fs.writeFileSync(path.join(dir, 'dist', 'electron'), '#!/bin/sh\\n');
fs.chmodSync(path.join(dir, 'dist', 'electron'), 0o755);
fs.writeFileSync(path.join(dir, 'path.txt'), 'electron');`
    : `console.error('TypeError: fetch failed\\n    at node:internal/deps/undici/undici:14976:13');
process.exit(1);`
}
`,
  );
  return file;
}

function envFor(c: ReturnType<typeof checkout>, installer: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, DISPLAY: ':0', [INSTALLER_ENV]: installer, STANDIN_MARKER: c.ranMarker, STANDIN_ELECTRON_DIR: c.electronDir, ...extra };
}

describe('npm start: desktop app or web mode', () => {
  it('runtime present: the desktop app, nothing downloaded', async () => {
    const c = checkout();
    writeRuntime(c.electronDir);
    const choice = await chooseStartMode({
      root: c.dir,
      electronDir: c.electronDir,
      env: envFor(c, standInInstaller('fails')),
      platform: 'linux',
      log: () => {},
    });
    expect(choice).toEqual({ mode: 'desktop', binary: join(c.electronDir, 'dist', 'electron') });
    expect(existsSync(c.ranMarker)).toBe(false);
  });

  it('no runtime, download succeeds: Electron’s installer runs, then the desktop app', async () => {
    const c = checkout();
    const logged: string[] = [];
    const choice = await chooseStartMode({
      root: c.dir,
      electronDir: c.electronDir,
      env: envFor(c, standInInstaller('succeeds')),
      platform: 'linux',
      log: (l) => logged.push(l),
    });
    expect(existsSync(c.ranMarker)).toBe(true);
    expect(choice).toEqual({ mode: 'desktop', binary: join(c.electronDir, 'dist', 'electron') });
    expect(logged.join('\n')).toMatch(/Downloading the Electron runtime/);
  });

  it('no runtime, download fails: web mode, with the installer’s error as the reason', async () => {
    const c = checkout();
    const choice = await chooseStartMode({
      root: c.dir,
      electronDir: c.electronDir,
      env: envFor(c, standInInstaller('fails')),
      platform: 'linux',
      log: () => {},
    });
    expect(existsSync(c.ranMarker)).toBe(true);
    expect(choice.mode).toBe('web');
    expect(choice.mode === 'web' && choice.reason).toMatch(/^the Electron runtime could not be downloaded \(exit code 1: TypeError: fetch failed\)/);
  });

  it('no display: web mode saying so, and no download attempted; macOS and Windows always have a display', async () => {
    const c = checkout();
    const env = envFor(c, standInInstaller('succeeds'), { DISPLAY: undefined, WAYLAND_DISPLAY: undefined });
    const choice = await chooseStartMode({ root: c.dir, electronDir: c.electronDir, env, platform: 'linux', log: () => {} });
    expect(choice).toEqual({ mode: 'web', reason: 'there is no display: neither DISPLAY nor WAYLAND_DISPLAY is set' });
    expect(existsSync(c.ranMarker)).toBe(false);
    // Wayland alone is a display.
    const wayland = await chooseStartMode({
      root: c.dir,
      electronDir: c.electronDir,
      env: { ...env, WAYLAND_DISPLAY: 'wayland-0' },
      platform: 'linux',
      log: () => {},
    });
    expect(wayland.mode).toBe('desktop');
    rmSync(join(c.electronDir, 'path.txt'));
    rmSync(c.ranMarker);
    expect((await chooseStartMode({ root: c.dir, electronDir: c.electronDir, env, platform: 'darwin', log: () => {} })).mode).toBe('desktop');
    expect(existsSync(c.ranMarker)).toBe(true);
  });

  it('INTERCEPTOR_CONSOLE_WEB=1 and ELECTRON_SKIP_BINARY_DOWNLOAD=1 are obeyed without a download', async () => {
    const c = checkout();
    const installer = standInInstaller('succeeds');
    const forced = await chooseStartMode({
      root: c.dir,
      electronDir: c.electronDir,
      env: envFor(c, installer, { INTERCEPTOR_CONSOLE_WEB: '1' }),
      platform: 'linux',
      log: () => {},
    });
    expect(forced).toEqual({ mode: 'web', reason: 'INTERCEPTOR_CONSOLE_WEB=1' });
    const skip = await chooseStartMode({
      root: c.dir,
      electronDir: c.electronDir,
      env: envFor(c, installer, { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }),
      platform: 'linux',
      log: () => {},
    });
    expect(skip.mode === 'web' && skip.reason).toMatch(/ELECTRON_SKIP_BINARY_DOWNLOAD=1/);
    expect(existsSync(c.ranMarker)).toBe(false);
  });
});

/** The electron package's own files, as npm installs them: its version and ABI. */
function writeElectronPackage(electronDir: string) {
  writeFileSync(join(electronDir, 'package.json'), JSON.stringify({ name: 'electron', version: '45.5.0' }));
  writeFileSync(join(electronDir, 'abi_version'), '150');
}

/** A stand-in for scripts/electron-sqlite.mjs (the real one downloads or compiles): writes the addon under --root, or crashes offline. */
function standInSqliteScript(outcome: 'succeeds' | 'fails'): string {
  const file = join(work, `sqlite-${outcome}.cjs`);
  writeFileSync(
    file,
    `const fs = require('node:fs'), path = require('node:path');
const root = process.argv[process.argv.indexOf('--root') + 1];
fs.writeFileSync(path.join(root, 'sqlite-script-ran'), process.argv.slice(2).join(' '));
console.log('Fetching better-sqlite3 for Electron 45.5.0 (ABI 150)…');
${
  outcome === 'succeeds'
    ? `fs.mkdirSync(path.join(root, 'native', 'electron-150'), { recursive: true });
fs.writeFileSync(path.join(root, 'native', 'electron-150', 'better_sqlite3.node'), 'addon');`
    : `console.error('Error: getaddrinfo ENOTFOUND github.com\\n    at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:120:26)');
process.exit(1);`
}
`,
  );
  return file;
}

describe('npm start: the desktop app’s history (better-sqlite3 for Electron’s ABI)', () => {
  const addon = (dir: string) => join(dir, 'native', 'electron-150', 'better_sqlite3.node');

  it('missing: fetched or built before the desktop app starts, for the installed Electron', async () => {
    const c = checkout();
    writeRuntime(c.electronDir);
    writeElectronPackage(c.electronDir);
    const logged: string[] = [];
    const choice = await chooseStartMode({
      root: c.dir,
      electronDir: c.electronDir,
      env: envFor(c, standInInstaller('fails'), { [SQLITE_SCRIPT_ENV]: standInSqliteScript('succeeds') }),
      platform: 'linux',
      log: (l) => logged.push(l),
    });
    expect(choice).toEqual({ mode: 'desktop', binary: join(c.electronDir, 'dist', 'electron') });
    expect(readFileSync(join(c.dir, 'sqlite-script-ran'), 'utf8')).toBe(`--root ${c.dir}`);
    expect(existsSync(addon(c.dir))).toBe(true);
    expect(logged).toEqual(['Fetching better-sqlite3 for Electron 45.5.0 (the desktop app’s history needs it; done once)…']);
  });

  it('present: nothing fetched', async () => {
    const c = checkout();
    writeRuntime(c.electronDir);
    writeElectronPackage(c.electronDir);
    mkdirSync(join(c.dir, 'native', 'electron-150'), { recursive: true });
    writeFileSync(addon(c.dir), 'addon');
    const logged: string[] = [];
    const choice = await chooseStartMode({
      root: c.dir,
      electronDir: c.electronDir,
      env: envFor(c, standInInstaller('fails'), { [SQLITE_SCRIPT_ENV]: standInSqliteScript('succeeds') }),
      platform: 'linux',
      log: (l) => logged.push(l),
    });
    expect(choice.mode).toBe('desktop');
    expect(existsSync(join(c.dir, 'sqlite-script-ran'))).toBe(false);
    expect(logged).toEqual([]);
  });

  it('cannot be fetched or built: the desktop app starts, and one line says its history is in memory only and what to run', async () => {
    const c = checkout();
    writeRuntime(c.electronDir);
    writeElectronPackage(c.electronDir);
    const logged: string[] = [];
    const choice = await chooseStartMode({
      root: c.dir,
      electronDir: c.electronDir,
      env: envFor(c, standInInstaller('fails'), { [SQLITE_SCRIPT_ENV]: standInSqliteScript('fails') }),
      platform: 'linux',
      log: (l) => logged.push(l),
    });
    expect(choice.mode).toBe('desktop');
    expect(logged).toHaveLength(2);
    expect(logged[1]).toBe(
      'The desktop app will keep its history in memory only (lost on exit): better-sqlite3 for Electron 45.5.0 could not be fetched or built (exit code 1: Error: getaddrinfo ENOTFOUND github.com). Run `npm run electron:sqlite`, then `npm start` again.',
    );
    expect(logged.join('\n')).not.toMatch(/\s+at\s/);
  });

  it('after Electron’s runtime is downloaded, too', async () => {
    const c = checkout();
    writeElectronPackage(c.electronDir);
    const choice = await chooseStartMode({
      root: c.dir,
      electronDir: c.electronDir,
      env: envFor(c, standInInstaller('succeeds'), { [SQLITE_SCRIPT_ENV]: standInSqliteScript('succeeds') }),
      platform: 'linux',
      log: () => {},
    });
    expect(choice.mode).toBe('desktop');
    expect(existsSync(addon(c.dir))).toBe(true);
  });
});

describe.skipIf(process.platform !== 'linux')('scripts/start.mjs on a desktop without internet', () => {
  it('shows the installer’s progress, then starts web mode with the reason and prints its URL', { timeout: 90_000 }, async () => {
    if (!existsSync(join(root, 'out', 'main', 'index.js')) || !existsSync(join(root, 'out', 'cli', 'web.js'))) throw new Error('run `npm run build` first');
    const dataDir = join(work, 'data');
    const marker = join(work, 'real-start-installer-ran');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DISPLAY: ':0',
      [INSTALLER_ENV]: standInInstaller('fails'),
      STANDIN_MARKER: marker,
      // Whatever this machine has downloaded, the runtime is looked for in an empty folder: never started here.
      ELECTRON_OVERRIDE_DIST_PATH: join(work, 'no-runtime'),
      INTERCEPTOR_CONSOLE_DB: '',
    };
    delete env.INTERCEPTOR_CONSOLE_WEB;
    delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
    const start = spawn(process.execPath, [join(root, 'scripts', 'start.mjs'), '--port', '0', '--data-dir', dataDir, '--no-demo'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    start.stdout.on('data', (c: Buffer) => (out += c.toString()));
    start.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<void>((resolve) => start.once('exit', () => resolve()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`start.mjs printed no URL within 60 s:\n${out}`)), 60_000);
        start.stdout.on('data', () => {
          const m = /(http:\/\/127\.0\.0\.1:\d+)\/#token=/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        start.once('exit', (code) => reject(new Error(`start.mjs exited with ${code}:\n${out}`)));
      });
      expect(existsSync(marker)).toBe(true);
      expect(out).toContain('Downloading electron-v45.5.0-linux-x64.zip: 37%');
      expect(out).toContain('Starting web mode (the Electron runtime could not be downloaded (exit code 1: TypeError: fetch failed)');
      expect(out.indexOf('37%')).toBeLessThan(out.indexOf('Starting web mode'));
      // One line says why ([desktop-client] item 1); the installer's stack trace is not printed.
      expect(out).not.toMatch(/^\s+at /m);
      expect(out).not.toMatch(/^TypeError: fetch failed/m);
      expect((await fetch(url)).status).toBe(200);
    } finally {
      start.kill('SIGTERM');
      await exited;
    }
  });
});
