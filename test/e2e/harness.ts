// End-to-end harness: a built renderer, web mode on a temporary data folder, and Debian's Chromium
// driven by playwright-core. Shared by the browser tests and the screenshot script.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Builds the renderer (electron-vite) when out/renderer is missing or older than its sources, under a
 * lock so that parallel test files do not build at once. CI has built already, so this is a no-op there.
 */
export function ensureRendererBuilt(): void {
  const index = join(root, 'out', 'renderer', 'index.html');
  const sources = Math.max(newestMtime(join(root, 'src', 'renderer')), newestMtime(join(root, 'src', 'shared')));
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  // In CI the build step has built everything: a rebuild here (electron-vite empties out/) would remove
  // out/cli under the tests that are running the CLI at that moment (seen: "Cannot find module out/cli/index.js").
  if (process.env.CI && existsSync(index)) return;
  const lock = join(root, 'out', '.renderer-build.lock');
  mkdirSync(join(root, 'out'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another test file is building: wait for it, then re-check.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
      if (existsSync(index) && statSync(index).mtimeMs >= sources && !existsSync(lock)) return;
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
    }
  }
  try {
    execFileSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
    });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface WebModeRun {
  /** Base URL (no token). */
  url: string;
  /** The printed URL with the token in its fragment (`#token=…`); append `#/route` to open a page. */
  openUrl: string;
  /** This run's token (what the page sends as `Authorization: Bearer`). */
  token: string;
  dataDir: string;
  /** ms from spawn to the URL being printed. */
  readyMs: number;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Runs `interceptor-console web` from the built CLI on a fresh data folder. */
export async function startWebMode(options: { demo?: boolean; dataDir?: string; db?: string } = {}): Promise<WebModeRun> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'ic-e2e-'));
  // out/cli/web.js is what `npm start` runs: web mode alone, URL first.
  const args = [
    join(root, 'out', 'cli', 'web.js'),
    '--port',
    '0',
    '--data-dir',
    dataDir,
    ...(options.demo === false ? ['--no-demo'] : []),
    ...(options.db ? ['--db', options.db] : []),
  ];
  const started = Date.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, INTERCEPTOR_CONSOLE_DB: '' } });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const openUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`web mode printed no URL within 60 s:\n${out}`)), 60_000);
    const check = () => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`web mode exited with ${code}:\n${out}`)));
  });
  const readyMs = Date.now() - started;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: openUrl.replace(/#token=.*$/, ''),
    openUrl,
    token: openUrl.replace(/^.*#token=/, ''),
    dataDir,
    readyMs,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
