// Which better-sqlite3 native addon this process loads. `npm ci` builds better-sqlite3 for Node's ABI
// (what `npm test`, the CLI and web mode run); a development Electron has another ABI and cannot load that
// build. So the Electron main entry (src/main/electron/main.ts) names an Electron-ABI copy kept beside it,
// native/electron-<abi>/better_sqlite3.node (made by scripts/electron-sqlite.mjs, which `npm start` runs
// before launching the desktop app), in one environment variable: every SQLite open reads it from there
// (openDatabase), and so do the writer thread and the CLI children the app spawns with its own binary.
// A packaged app needs none of this: electron-builder rebuilds better-sqlite3 for Electron.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';

/** Path of the better-sqlite3 addon to load instead of the one `npm ci` built (better-sqlite3's `nativeBinding`). */
export const SQLITE_BINDING_ENV = 'INTERCEPTOR_CONSOLE_SQLITE_BINDING';

/** What to run to make the Electron-ABI copy (the script `npm start` runs by itself). */
export const ELECTRON_SQLITE_COMMAND = 'npm run electron:sqlite';

/** `<root>/native/electron-<abi>/better_sqlite3.node`: where scripts/electron-sqlite.mjs puts the addon built for Electron's ABI. */
export function electronBindingPath(root: string, abi: string | number): string {
  return join(root, 'native', `electron-${abi}`, 'better_sqlite3.node');
}

/** The `nativeBinding` option for better-sqlite3: the addon named by SQLITE_BINDING_ENV, or none (its own build). */
export function sqliteBindingOption(env: NodeJS.ProcessEnv = process.env): { nativeBinding?: string } {
  const path = env[SQLITE_BINDING_ENV]?.trim();
  if (!path) return {};
  const file = resolve(path);
  if (!existsSync(file)) {
    throw new SqliteBindingError(
      `the better-sqlite3 build for this runtime (${runtimeName()}) is missing: ${file} does not exist. Run \`${ELECTRON_SQLITE_COMMAND}\` in the checkout (it fetches or builds it), then start again.`,
    );
  }
  return { nativeBinding: file };
}

export class SqliteBindingError extends Error {
  override readonly name = 'SqliteBindingError';
}

/**
 * `new Database(file, options)` with the addon this process must load. An addon that cannot load (one of
 * another ABI: Node's build under Electron, or the reverse; or no addon at all) fails with Node's loader
 * error (NODE_MODULE_VERSION …): it is said instead as what happened and what to run.
 */
export function openDatabase(file: string, options: Database.Options = {}, env: NodeJS.ProcessEnv = process.env): Database.Database {
  const binding = sqliteBindingOption(env);
  try {
    return new Database(file, { ...options, ...binding });
  } catch (err) {
    const message = (err as Error).message ?? String(err);
    const dlopen = (err as NodeJS.ErrnoException).code === 'ERR_DLOPEN_FAILED' || /NODE_MODULE_VERSION|compiled against a different/.test(message);
    if (!dlopen) throw err;
    const addon = binding.nativeBinding ?? 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
    const built = /NODE_MODULE_VERSION (\d+)/.exec(message)?.[1];
    throw new SqliteBindingError(
      `the better-sqlite3 addon ${addon} cannot be loaded in ${runtimeName()} (ABI ${process.versions.modules}): ` +
        (built ? `it was built for another runtime (ABI ${built}). ` : `it is not an addon built for this runtime (${message.replace(/^.*?: /, '')}). `) +
        (process.versions.electron
          ? `Run \`${ELECTRON_SQLITE_COMMAND}\` in the checkout (it fetches or builds the Electron copy), then start again.`
          : `Run \`npm rebuild better-sqlite3\`${binding.nativeBinding ? `, or unset ${SQLITE_BINDING_ENV}` : ''}.`),
    );
  }
}

function runtimeName(): string {
  return process.versions.electron ? `Electron ${process.versions.electron}` : `Node ${process.versions.node}`;
}

/**
 * Called by the Electron main entry before anything opens SQLite: a development Electron (a checkout, not
 * a packaged app) loads `native/electron-<its ABI>/better_sqlite3.node`. A path already set is kept (a
 * test or a custom build); returns the path this set, if any.
 */
export function adoptElectronSqliteBinding(
  root: string,
  isPackaged: boolean,
  env: NodeJS.ProcessEnv = process.env,
  versions: NodeJS.ProcessVersions = process.versions,
): string | undefined {
  if (isPackaged || !versions.electron || env[SQLITE_BINDING_ENV]?.trim()) return undefined;
  const path = electronBindingPath(root, versions.modules);
  env[SQLITE_BINDING_ENV] = path;
  return path;
}
