#!/usr/bin/env node
// `npm start`: the desktop app when the Electron runtime is installed (and a display is there), else
// web mode, which prints the URL to open. Extra arguments go to web mode: `npm start -- --port 8080`.
// Set INTERCEPTOR_CONSOLE_WEB=1 to force web mode.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'out', 'cli', 'index.js');
// Web mode alone: prints its URL before loading the rest of the core (the full CLI as a fallback).
const webEntry = join(root, 'out', 'cli', 'web.js');
const renderer = join(root, 'out', 'renderer', 'index.html');

if (!existsSync(cli) || !existsSync(renderer)) {
  console.error('The console is not built yet: run `npm run build` first (or `npm ci && npm run build && npm start`).');
  process.exit(1);
}

/** Reads electron's path.txt like its index.js, without calling it (that would try to download). */
function electronBinary() {
  const pkg = join(root, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const full = join(process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(pkg, 'dist'), readFileSync(pathFile, 'utf8').trim());
  return existsSync(full) && existsSync(join(root, 'out', 'main', 'index.js')) ? full : undefined;
}

function why() {
  if (process.env.INTERCEPTOR_CONSOLE_WEB === '1') return 'INTERCEPTOR_CONSOLE_WEB=1';
  const binary = electronBinary();
  if (!binary) return 'the Electron runtime is not installed';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return 'there is no display';
  return undefined;
}

const reason = why();
const child = reason
  ? (console.log(`Starting web mode (${reason}). Open the URL below in a browser.`),
    spawn(process.execPath, existsSync(webEntry) ? [webEntry, ...process.argv.slice(2)] : [cli, 'web', ...process.argv.slice(2)], { stdio: 'inherit' }))
  : spawn(electronBinary(), [root], { stdio: 'inherit' });

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// `npm start` runs this script under `sh -c`: a SIGTERM to npm kills that shell, which does not pass the
// signal on, and this process is re-parented with the console still running (orphaned, holding its port).
// So a change of parent means whoever started us is gone: stop the console as if we had been signalled.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) child.kill('SIGTERM');
}, 500).unref();
