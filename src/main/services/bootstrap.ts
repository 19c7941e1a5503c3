// The composition root shared by web mode, Electron and tests: builds the environment and plugs the
// real capabilities (gateway engine, SQLite store, chain engine, interceptor connections) into the core.
import { join, resolve } from 'node:path';
import { ensurePrivateDir } from '../files/private-files';
import { createAppCore, type AppCore, type CorePorts } from './app-core';
import { cliLaunchFor, defaultDbPath, stderrLogger, systemClock, type AppEnvironment, type Logger } from './environment';
import type { RecordingHistory } from '../history/model/history-store';
import { InMemoryHistory } from './in-memory-history';
import { openHistoryAt, savedHistoryUrl } from './history-switch/history-location';
import { isPostgresUrl } from '../history/postgres';
import { gatewayRuntimeFactory } from './gateway-adapter';
import { InterceptorServerPool } from './pool/pool';
import { PoolChainService } from './pool/chain-service';

export interface BootstrapOptions {
  mode: AppEnvironment['mode'];
  /** Root of the checkout or packaged app: holds out/cli, out/renderer and resources/. */
  packageRoot: string;
  dataDir: string;
  dbPath?: string;
  version?: string;
  logger?: Logger;
  /** Override the CLI launch (Electron passes its own, tests may too). */
  cli?: AppEnvironment['cli'];
  resourcesDir?: string;
}

export function buildEnvironment(o: BootstrapOptions): AppEnvironment {
  const dataDir = resolve(o.dataDir);
  // Holds gateway configs with bearer tokens and the recorded traffic: the user's alone (0700).
  ensurePrivateDir(dataDir);
  const dbOverride = o.dbPath ? '--db' : process.env.INTERCEPTOR_CONSOLE_DB?.trim() ? 'INTERCEPTOR_CONSOLE_DB' : undefined;
  return {
    mode: o.mode,
    version: o.version ?? process.env.npm_package_version ?? '0.1.0',
    dataDir,
    // A postgres:// connection string names a shared server, not a file: kept as given. Without --db or
    // INTERCEPTOR_CONSOLE_DB, the history chosen in Settings (a PostgreSQL URL), else the data folder's file.
    dbPath: o.dbPath
      ? isPostgresUrl(o.dbPath)
        ? o.dbPath.trim()
        : resolve(o.dbPath)
      : dbOverride
        ? defaultDbPath(dataDir)
        : (savedHistoryUrl(dataDir) ?? defaultDbPath(dataDir)),
    ...(dbOverride ? { dbOverride } : {}),
    resourcesDir: o.resourcesDir ?? join(o.packageRoot, 'resources'),
    cli: o.cli ?? cliLaunchFor(join(o.packageRoot, 'out', 'cli', 'index.js')),
    clock: systemClock,
    logger: o.logger ?? stderrLogger(),
  };
}

/** Ports backed by the real capabilities: gateway engine, SQLite store, chain engine, interceptor connections. */
export async function realPorts(env: AppEnvironment): Promise<CorePorts> {
  const pool = new InterceptorServerPool(env.logger);
  return { history: await openHistory(env), runtimeFactory: gatewayRuntimeFactory, pool, chain: new PoolChainService(pool) };
}

/**
 * The history at env.dbPath: an SQLite file, or a PostgreSQL database for a postgres:// connection
 * string. If it cannot be opened (a foreign or damaged file, which the store leaves untouched; a server
 * that refuses the connection; or, in a development Electron, a missing Electron-ABI better-sqlite3: see
 * src/main/native/sqlite-binding.ts) the console still runs, keeping history in memory, and says why and,
 * for the addon, what to run.
 */
export async function openHistory(env: AppEnvironment): Promise<RecordingHistory> {
  try {
    return await openHistoryAt(env.dbPath, env.logger);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    env.logger.error(`history store unavailable, keeping history in memory only: ${reason}`);
    return new InMemoryHistory(reason);
  }
}

export async function bootstrapCore(o: BootstrapOptions): Promise<AppCore> {
  const env = buildEnvironment(o);
  return createAppCore(env, await realPorts(env));
}
