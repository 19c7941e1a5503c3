#!/usr/bin/env node
// `npm run electron:sqlite`: the better-sqlite3 addon for the installed Electron's ABI, put beside Node's
// build at native/electron-<abi>/better_sqlite3.node (src/main/native/sqlite-binding.ts loads it in a
// development Electron). `npm ci` builds better-sqlite3 for Node, which `npm test`, the CLI and web mode
// run: that build is never touched. The addon is downloaded as a prebuilt binary (prebuild-install
// --runtime electron --target <electron version>), else compiled against Electron's headers (node-gyp),
// in a temporary copy of the package. `npm start` runs this before the desktop app when the addon is missing;
// nothing runs it under `npm test`.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ELECTRON_HEADERS = 'https://electronjs.org/headers';

/**
 * What to build for, read from the installed `electron` package: its version (the --target), its ABI
 * (node_modules/electron/abi_version, else node-abi's table) and so where the addon goes.
 */
export function electronTarget(root, { electronDir = join(root, 'node_modules', 'electron'), platform = process.platform, arch = process.arch } = {}) {
  const pkg = join(electronDir, 'package.json');
  if (!existsSync(pkg)) throw new Error(`Electron is not installed (${pkg} is missing): run \`npm ci\` first.`);
  const version = JSON.parse(readFileSync(pkg, 'utf8')).version;
  let abi;
  const abiFile = join(electronDir, 'abi_version');
  if (existsSync(abiFile)) abi = readFileSync(abiFile, 'utf8').trim();
  else {
    try {
      abi = createRequire(join(root, 'package.json'))('node-abi').getAbi(version, 'electron');
    } catch (err) {
      throw new Error(`cannot tell the ABI of Electron ${version} (no ${abiFile}, and node-abi says: ${err.message})`);
    }
  }
  if (!/^\d+$/.test(String(abi))) throw new Error(`Electron ${version}: unexpected ABI "${abi}"`);
  const binding = join(root, 'native', `electron-${abi}`, 'better_sqlite3.node');
  return { version, abi: String(abi), platform, arch, binding, sqliteDir: join(root, 'node_modules', 'better-sqlite3') };
}

/** prebuild-install's arguments: the prebuilt addon for this Electron, written under `dir` (the package copy). */
export function prebuildArgs(target, dir) {
  return ['--runtime', 'electron', '--target', target.version, '--arch', target.arch, '--platform', target.platform, '--path', dir];
}

/** node-gyp's arguments: compiles the addon against this Electron's headers, when no prebuilt one can be had. */
export function nodeGypArgs(target) {
  return ['rebuild', '--release', `--target=${target.version}`, `--arch=${target.arch}`, '--runtime=electron', `--dist-url=${ELECTRON_HEADERS}`];
}

/** Fetches (else builds) the addon unless it is there already; returns its path. Throws saying what failed. */
export function ensureElectronSqlite(root, { log = (line) => console.log(line), force = false } = {}) {
  const target = electronTarget(root);
  if (existsSync(target.binding) && !force) return target.binding;
  const work = mkdtempSync(join(tmpdir(), 'ic-electron-sqlite-'));
  try {
    const copy = join(work, 'better-sqlite3');
    // The package without its Node build: what is made here must never land in node_modules.
    cpSync(target.sqliteDir, copy, { recursive: true, filter: (src) => !src.startsWith(join(target.sqliteDir, 'build')) });
    const built = join(copy, 'build', 'Release', 'better_sqlite3.node');
    log(`Fetching better-sqlite3 for Electron ${target.version} (ABI ${target.abi})…`);
    const prebuild = createRequire(join(root, 'package.json')).resolve('prebuild-install/bin.js');
    let run = spawnSync(process.execPath, [prebuild, ...prebuildArgs(target, copy)], { cwd: copy, stdio: 'inherit' });
    if (run.status !== 0 || !existsSync(built)) {
      log(`No prebuilt binary could be fetched; compiling it against Electron ${target.version}'s headers (node-gyp)…`);
      const gyp = process.env.npm_config_node_gyp;
      run = gyp
        ? spawnSync(process.execPath, [gyp, ...nodeGypArgs(target)], { cwd: copy, stdio: 'inherit' })
        : spawnSync('npx', ['--yes', 'node-gyp', ...nodeGypArgs(target)], { cwd: copy, stdio: 'inherit', shell: process.platform === 'win32' });
    }
    if (run.status !== 0 || !existsSync(built)) {
      throw new Error(
        `could not fetch or build better-sqlite3 for Electron ${target.version} (no prebuilt binary, and node-gyp ${run.error ? `failed: ${run.error.message}` : `exited with ${run.status}`})`,
      );
    }
    if (loadsInThisNode(built, target)) {
      // node-gyp compiled against Node's headers: a `nodedir` in the npm config wins over --target and --dist-url.
      throw new Error(
        `node-gyp built better-sqlite3 for Node's ABI ${process.versions.modules}, not Electron's ${target.abi} (does your npm config set nodedir? \`npm config get nodedir\`; remove it, then run this again)`,
      );
    }
    mkdirSync(dirname(target.binding), { recursive: true });
    copyFileSync(built, target.binding);
    log(`better-sqlite3 for Electron ${target.version}: ${target.binding}`);
    return target.binding;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** An addon made for Electron cannot load in this Node (unless both share one ABI): one that does was built for Node. */
function loadsInThisNode(file, target) {
  if (target.abi === process.versions.modules) return false;
  try {
    createRequire(import.meta.url)(file);
    return true;
  } catch {
    return false;
  }
}

if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  // --root <checkout>: the checkout to build for (default: this script's own).
  const at = process.argv.indexOf('--root');
  const root = at > 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : fileURLToPath(new URL('..', import.meta.url));
  try {
    ensureElectronSqlite(root, { force: process.argv.includes('--force') });
  } catch (err) {
    console.error(`electron:sqlite: ${err.message}`);
    process.exit(1);
  }
}
