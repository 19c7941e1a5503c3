// Shared helpers for app-level tests: a temporary environment and a core built on it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEnvironment } from '../../src/main/services/bootstrap';
import { createAppCore, type AppCore, type CorePorts } from '../../src/main/services/app-core';
import { silentLogger } from '../../src/main/services/environment';
import { InMemoryHistory } from '../../src/main/services/in-memory-history';
import { SqliteHistory } from '../../src/main/history/sqlite';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export function tempDir(prefix = 'ic-app-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A core on `dataDir`; `sqlite` records into a real SQLite file there (else history stays in memory). */
export function testCore(dataDir: string, ports: Partial<CorePorts> = {}, options: { sqlite?: boolean } = {}): AppCore {
  const env = buildEnvironment({ mode: 'test', packageRoot: repoRoot, dataDir, logger: silentLogger });
  return createAppCore(env, { history: options.sqlite ? SqliteHistory.open(env.dbPath) : new InMemoryHistory(), ...ports });
}
