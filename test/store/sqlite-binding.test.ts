// Which better-sqlite3 addon the history loads (src/main/native/sqlite-binding.ts). A development Electron
// cannot load the Node-ABI build `npm ci` makes; its main entry names the Electron-ABI copy (native/
// electron-<abi>/) in INTERCEPTOR_CONSOLE_SQLITE_BINDING, which every SQLite open passes to better-sqlite3 as
// `nativeBinding`. Electron's runtime cannot be had here, so Node stands in: its own build named there
// works; a missing or foreign addon gives a message saying what to run, and the console says it keeps
// history in memory only instead of doing so silently.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  adoptElectronSqliteBinding,
  ELECTRON_SQLITE_COMMAND,
  electronBindingPath,
  openDatabase,
  SQLITE_BINDING_ENV,
  sqliteBindingOption,
} from '../../src/main/native/sqlite-binding';
import { openStore } from '../../src/main/history/sqlite/open/open-store';
import { buildEnvironment, openHistory } from '../../src/main/services/bootstrap';
import { InMemoryHistory } from '../../src/main/services/in-memory-history';
import type { Logger } from '../../src/main/services/environment';
import { repoRoot, tempDir } from '../app/helpers';

const nodeBuild = join(repoRoot, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
const dirs: { cleanup(): void }[] = [];
function temp() {
  const t = tempDir('ic-sqlite-binding-');
  dirs.push(t);
  return t.dir;
}
afterEach(() => {
  vi.unstubAllEnvs();
  for (const d of dirs.splice(0)) d.cleanup();
});

describe('the nativeBinding option', () => {
  it('is absent unless INTERCEPTOR_CONSOLE_SQLITE_BINDING names an addon (npm test loads better-sqlite3’s own build)', () => {
    expect(sqliteBindingOption({})).toEqual({});
    expect(sqliteBindingOption({ [SQLITE_BINDING_ENV]: '  ' })).toEqual({});
    expect(sqliteBindingOption({ [SQLITE_BINDING_ENV]: nodeBuild })).toEqual({ nativeBinding: nodeBuild });
  });

  it('reaches the Database constructor: a history opens with the addon it names (Node’s own build, at another path)', () => {
    const dir = temp();
    const copy = join(dir, 'electron-stand-in', 'better_sqlite3.node');
    mkdirSync(join(dir, 'electron-stand-in'));
    copyFileSync(nodeBuild, copy);
    vi.stubEnv(SQLITE_BINDING_ENV, copy);
    const store = openStore(join(dir, 'history.db'));
    expect(store.db.prepare('SELECT 1 AS one').get()).toEqual({ one: 1 });
    store.close();
    // The option is what decides: a file that is no addon, named there, is what better-sqlite3 tries to load.
    const junk = join(dir, 'junk.node');
    writeFileSync(junk, 'not an addon');
    expect(() => openDatabase(join(dir, 'other.db'), {}, { [SQLITE_BINDING_ENV]: junk })).toThrow(junk);
  });

  it('a missing addon: the message names it and says exactly what to run', () => {
    const dir = temp();
    const missing = electronBindingPath(dir, 150);
    vi.stubEnv(SQLITE_BINDING_ENV, missing);
    let message = '';
    try {
      openStore(join(dir, 'history.db'));
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain(`${missing} does not exist`);
    expect(message).toContain(`Run \`${ELECTRON_SQLITE_COMMAND}\``);
    expect(ELECTRON_SQLITE_COMMAND).toBe('npm run electron:sqlite');
    expect(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts['electron:sqlite']).toBe('node scripts/electron-sqlite.mjs');
  });

  it('an addon of another ABI (or no addon at all): said as such, with what to run, not as Node’s loader error', () => {
    const dir = temp();
    const foreign = join(dir, 'better_sqlite3.node');
    writeFileSync(foreign, Buffer.from('\x7fELF but not really an addon built for this runtime'));
    let message = '';
    try {
      openDatabase(join(dir, 'history.db'), {}, { [SQLITE_BINDING_ENV]: foreign });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(new RegExp(`the better-sqlite3 addon ${foreign.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be loaded in Node`));
    expect(message).toContain(`cannot be loaded in Node ${process.versions.node} (ABI ${process.versions.modules}): it is not an addon built for this runtime`);
    expect(message).toContain('npm rebuild better-sqlite3');
  });
});

describe('the console without its addon', () => {
  it('keeps history in memory, and says so in the log and in app.info (the Gateways page shows it)', async () => {
    const dir = temp();
    vi.stubEnv(SQLITE_BINDING_ENV, electronBindingPath(dir, 150));
    const errors: string[] = [];
    const logger: Logger = { info: () => undefined, warn: () => undefined, error: (m: string) => void errors.push(m), debug: () => undefined };
    const env = buildEnvironment({ mode: 'test', packageRoot: repoRoot, dataDir: dir, dbPath: join(dir, 'history.db'), logger });
    const history = await openHistory(env);
    expect(history).toBeInstanceOf(InMemoryHistory);
    expect(errors.join('\n')).toMatch(/keeping history in memory only: .*npm run electron:sqlite/);
    expect((history as InMemoryHistory).unavailableReason).toContain('npm run electron:sqlite');
    await history.close();
  });
});

describe('the Electron main entry names the Electron-ABI copy', () => {
  const electron = { ...process.versions, electron: '45.5.0', modules: '150' } as NodeJS.ProcessVersions;

  it('in a development Electron: <checkout>/native/electron-<abi>/better_sqlite3.node', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(adoptElectronSqliteBinding('/checkout', false, env, electron)).toBe(join('/checkout', 'native', 'electron-150', 'better_sqlite3.node'));
    expect(env[SQLITE_BINDING_ENV]).toBe(join('/checkout', 'native', 'electron-150', 'better_sqlite3.node'));
  });

  it('not in a packaged app (electron-builder rebuilt better-sqlite3), not under Node, not over a path already set', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(adoptElectronSqliteBinding('/checkout', true, env, electron)).toBeUndefined();
    expect(adoptElectronSqliteBinding('/checkout', false, env, process.versions)).toBeUndefined();
    expect(env).toEqual({});
    const set: NodeJS.ProcessEnv = { [SQLITE_BINDING_ENV]: '/custom/better_sqlite3.node' };
    expect(adoptElectronSqliteBinding('/checkout', false, set, electron)).toBeUndefined();
    expect(set[SQLITE_BINDING_ENV]).toBe('/custom/better_sqlite3.node');
  });

  it('main.ts does it before the core opens the history', () => {
    const main = readFileSync(join(repoRoot, 'src', 'main', 'electron', 'main.ts'), 'utf8');
    const adopt = main.indexOf('adoptElectronSqliteBinding(appRoot, app.isPackaged)');
    expect(adopt).toBeGreaterThan(0);
    expect(adopt).toBeLessThan(main.indexOf('await bootstrapCore('));
    expect(existsSync(nodeBuild)).toBe(true);
  });
});
