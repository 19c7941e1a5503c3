#!/usr/bin/env node
// `npm start`: the desktop app on a machine with a display (downloading Electron's runtime with Electron's
// own installer on first use), else web mode, which prints the URL to open; scripts/start-mode.mjs decides
// and says why. Extra arguments go to web mode: `npm start -- --port 8080`. Set INTERCEPTOR_CONSOLE_WEB=1 to
// force web mode.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseStartMode } from './start-mode.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'out', 'cli', 'index.js');
// Web mode alone: prints its URL before loading the rest of the core (the full CLI as a fallback).
const webEntry = join(root, 'out', 'cli', 'web.js');
const renderer = join(root, 'out', 'renderer', 'index.html');

if (!existsSync(cli) || !existsSync(renderer)) {
  console.error('The console is not built yet: run `npm run build` first (or `npm ci && npm run build && npm start`).');
  process.exit(1);
}

// The child running now: Electron's installer while it downloads, then the console.
let child;
let stopping;
const stop = (signal) => {
  stopping = signal;
  if (child && child.exitCode === null) child.kill(signal);
  else process.exit(1);
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal === 'SIGHUP' ? 'SIGTERM' : signal));

// `npm start` runs this script under `sh -c`: a SIGTERM to npm kills that shell, which does not pass the
// signal on, and this process is re-parented with the console still running (orphaned, holding its port).
// So a change of parent means whoever started us is gone: stop the console as if we had been signalled.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop('SIGTERM');
}, 500).unref();

const choice = await chooseStartMode({ root, onInstallerChild: (c) => (child = c) });
if (stopping) process.exit(1); // interrupted while the runtime was downloading
child =
  choice.mode === 'web'
    ? (console.log(`Starting web mode (${choice.reason}). Open the URL below in a browser.`),
      spawn(process.execPath, existsSync(webEntry) ? [webEntry, ...process.argv.slice(2)] : [cli, 'web', ...process.argv.slice(2)], { stdio: 'inherit' }))
    : spawn(choice.binary, [root], { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
