// The environment the core runs in, injected so that the same services run inside Electron, the
// headless CLI, web mode and tests: where data lives, what time it is, where logs go, and how to
// launch this installation's own CLI as a child process (sample interceptors, headless gateways).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface Logger {
  debug(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

export interface Clock {
  now(): Date;
}

/** How to start this installation's CLI: `command ...args <subcommand>`, with extra env (Electron needs ELECTRON_RUN_AS_NODE). */
export interface CliLaunch {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export interface AppEnvironment {
  mode: 'electron' | 'web' | 'test';
  version: string;
  dataDir: string;
  /** The history in use: a file path or a postgres:// URL (with its password, in memory only). Changes when Settings switches it. */
  dbPath: string;
  /** `--db` or `INTERCEPTOR_CONSOLE_DB` when the history was named at start: it wins over Settings, which then cannot switch it. */
  dbOverride?: string;
  /** Folder holding examples/ and gateway-config.schema.json. */
  resourcesDir: string;
  cli: CliLaunch;
  clock: Clock;
  logger: Logger;
}

export const systemClock: Clock = { now: () => new Date() };

/** Logs to stderr: stdout may carry JSON-RPC (stdio gateways) and must stay clean. */
export function stderrLogger(prefix = 'interceptor-console', level: 'debug' | 'info' | 'warn' | 'error' = 'info'): Logger {
  const order = ['debug', 'info', 'warn', 'error'];
  const min = order.indexOf(level);
  const write =
    (lvl: string) =>
    (message: string, ...details: unknown[]) => {
      if (order.indexOf(lvl) < min) return;
      const extra = details.map((d) => (d instanceof Error ? (d.stack ?? d.message) : typeof d === 'string' ? d : JSON.stringify(d)));
      process.stderr.write(`[${prefix}] ${lvl}: ${[message, ...extra].join(' ')}\n`);
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** The default data folder when none is given (Electron uses its userData instead). */
export { defaultDataDir } from '../history/model/data-dir';

/** The SQLite file: `INTERCEPTOR_CONSOLE_DB` wins, else `<dataDir>/history.db`. */
export function defaultDbPath(dataDir: string): string {
  const fromEnv = process.env.INTERCEPTOR_CONSOLE_DB?.trim();
  if (!fromEnv) return join(dataDir, 'history.db');
  // A postgres:// connection string is a server, not a path to resolve.
  return /^postgres(ql)?:\/\//i.test(fromEnv) ? fromEnv : resolve(fromEnv);
}

/** Walks up from `start` to the folder holding package.json (the checkout or the packaged app). */
export function findPackageRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}

/** Launches the built CLI bundle with the current runtime (Node, or Electron acting as Node). */
export function cliLaunchFor(cliPath: string): CliLaunch {
  const electron = Boolean(process.versions.electron);
  return {
    command: process.execPath,
    args: [cliPath],
    ...(electron ? { env: { ELECTRON_RUN_AS_NODE: '1' } } : {}),
  };
}
