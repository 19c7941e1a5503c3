// What `npm start` runs: the desktop app or web mode, and why. Kept apart from scripts/start.mjs (which
// only spawns what this decides) so that the decision is tested as a function, with a stand-in installer.
//
// Electron 45 no longer downloads its runtime when it is installed: the runtime is fetched on first use.
// So on a machine with a display and no runtime yet, Electron's own installer (node_modules/electron/
// install.js, the script behind `npx install-electron`) is run here, its progress shown, and the desktop
// app starts once it has the runtime. When the download fails (no internet) or there is no display, web
// mode starts instead and says why.
//
// Before the desktop app starts, the better-sqlite3 addon for Electron's ABI (native/electron-<abi>/, see
// scripts/electron-sqlite.mjs) is fetched or built when missing: without it the desktop app could not open
// its history file. When that fails, the desktop app still starts, and one line says its history is kept
// in memory only and what to run.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronTarget } from './electron-sqlite.mjs';

/**
 * Set to a script to run instead of Electron's installer. For tests only: a stand-in that fails or writes
 * a runtime, since the real one needs the internet.
 */
export const INSTALLER_ENV = 'INTERCEPTOR_CONSOLE_ELECTRON_INSTALLER';

/** Set to a script to run instead of scripts/electron-sqlite.mjs. For tests only (the real one downloads or compiles). */
export const SQLITE_SCRIPT_ENV = 'INTERCEPTOR_CONSOLE_ELECTRON_SQLITE_SCRIPT';

/** Linux and the BSDs need an X11 or Wayland display; macOS and Windows always have one. */
export function hasDisplay(platform, env) {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** The downloaded runtime's executable, read from path.txt like electron's index.js, without calling it (that would download). */
export function electronBinary(electronDir, env) {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const full = join(env.ELECTRON_OVERRIDE_DIST_PATH ?? join(electronDir, 'dist'), readFileSync(pathFile, 'utf8').trim());
  return existsSync(full) ? full : undefined;
}

/** Lines of a crash report (a stack trace, Node's source excerpt and version line): never shown to the user. */
const CRASH_LINE = /^(\s+at\s|\s*\^+\s*$|node:internal\/|Node\.js v\d|\w*Error\b|\{$|\}$|\s+\w+: )/;

/**
 * Runs the installer with its output shown as it goes (its progress lines, a progress bar redrawn with
 * carriage returns), except a crash report: when the download fails (no internet), the one-line reason
 * comes back as `message` and the caller says it once, instead of the installer's stack trace.
 */
function runInstaller(installer, { env, onChild, args = [] }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [installer, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    onChild?.(child);
    let tail = '';
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let pending = '';
      stream.on('data', (chunk) => {
        const text = chunk.toString();
        tail = (tail + text).slice(-4000);
        pending += text;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) if (!CRASH_LINE.test(line)) out.write(`${line}\n`);
        // A progress bar redraws one line with \r: shown as it goes, up to its last redraw.
        const cr = pending.lastIndexOf('\r');
        if (cr >= 0 && !CRASH_LINE.test(pending.slice(cr + 1))) {
          out.write(pending.slice(0, cr + 1));
          pending = pending.slice(cr + 1);
        }
      });
      stream.on('end', () => {
        if (pending && !CRASH_LINE.test(pending)) out.write(`${pending}\n`);
      });
    }
    child.once('error', (err) => resolve({ code: -1, message: err.message }));
    child.once('close', (code, signal) => {
      const lines = tail
        .split(/[\r\n]/)
        .map((l) => l.trim())
        .filter(Boolean);
      // A stack trace's first line is the error itself ("TypeError: fetch failed"); else the last line.
      const message = lines.find((l) => /^\w*Error\b/.test(l)) ?? lines.filter((l) => !/^at\s/.test(l)).at(-1);
      resolve({ code: code ?? (signal ? 1 : 0), message });
    });
  });
}

/**
 * Decides how to start. `root` is the checkout (with out/ built); `electronDir` is where electron keeps
 * path.txt and dist/. Returns `{ mode: 'desktop', binary }` or `{ mode: 'web', reason }`.
 */
export async function chooseStartMode({
  root,
  electronDir = join(root, 'node_modules', 'electron'),
  env = process.env,
  platform = process.platform,
  log = (line) => console.log(line),
  onInstallerChild,
}) {
  if (env.INTERCEPTOR_CONSOLE_WEB === '1') return { mode: 'web', reason: 'INTERCEPTOR_CONSOLE_WEB=1' };
  if (!hasDisplay(platform, env)) return { mode: 'web', reason: 'there is no display: neither DISPLAY nor WAYLAND_DISPLAY is set' };
  if (!existsSync(join(root, 'out', 'main', 'index.js')))
    return { mode: 'web', reason: 'the desktop app is not built (out/main is missing): run `npm run build`' };
  const present = electronBinary(electronDir, env);
  if (present) {
    await ensureElectronSqlite({ root, electronDir, env, log, onChild: onInstallerChild });
    return { mode: 'desktop', binary: present };
  }
  if (env.ELECTRON_SKIP_BINARY_DOWNLOAD === '1') {
    return { mode: 'web', reason: 'the Electron runtime is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD=1 forbids downloading it' };
  }

  const installer = env[INSTALLER_ENV] || join(electronDir, 'install.js');
  if (!existsSync(installer))
    return { mode: 'web', reason: `the Electron runtime is not installed and its installer is missing (${installer}): run \`npm ci\`` };
  log('Downloading the Electron runtime (first start of the desktop app) with Electron’s installer…');
  const result = await runInstaller(installer, { env, onChild: onInstallerChild });
  const binary = result.code === 0 ? electronBinary(electronDir, env) : undefined;
  if (binary) {
    log('The Electron runtime is installed; starting the desktop app.');
    await ensureElectronSqlite({ root, electronDir, env, log, onChild: onInstallerChild });
    return { mode: 'desktop', binary };
  }
  const why = result.code === 0 ? 'the installer finished but no runtime was found' : `exit code ${result.code}${result.message ? `: ${result.message}` : ''}`;
  return {
    mode: 'web',
    reason: `the Electron runtime could not be downloaded (${why}); run \`node node_modules/electron/install.js\` when online, then \`npm start\` again`,
  };
}

/**
 * The desktop app's history needs better-sqlite3 built for Electron's ABI: fetched or built by
 * scripts/electron-sqlite.mjs when it is not there yet (its progress shown as it goes, a crash report
 * never). When that fails, one line says the history will be kept in memory only, and what to run.
 */
async function ensureElectronSqlite({ root, electronDir, env, log, onChild }) {
  // No electron package here (a runtime named by ELECTRON_OVERRIDE_DIST_PATH alone): nothing to build for.
  if (!existsSync(join(electronDir, 'package.json'))) return;
  const command = '`npm run electron:sqlite`, then `npm start` again';
  let target;
  try {
    target = electronTarget(root, { electronDir });
  } catch (err) {
    log(`The desktop app will keep its history in memory only (lost on exit): ${err.message}. Run ${command}.`);
    return;
  }
  if (existsSync(target.binding)) return;
  const script = env[SQLITE_SCRIPT_ENV] || fileURLToPath(new URL('electron-sqlite.mjs', import.meta.url));
  log(`Fetching better-sqlite3 for Electron ${target.version} (the desktop app’s history needs it; done once)…`);
  const result = await runInstaller(script, { env, onChild, args: ['--root', root] });
  if (result.code === 0 && existsSync(target.binding)) return;
  const why = result.code === 0 ? 'the script finished but wrote no addon' : `exit code ${result.code}${result.message ? `: ${result.message}` : ''}`;
  log(
    `The desktop app will keep its history in memory only (lost on exit): better-sqlite3 for Electron ${target.version} could not be fetched or built (${why}). Run ${command}.`,
  );
}
