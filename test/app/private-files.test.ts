// The data folder is the user's alone (#16 item 2): run under umask 022, as a desktop session is, the
// app and the CLI create the data folder 0700 and every file in it 0600: gateway configs (with their
// bearer tokens), the registry, settings, the demo marker, reload logs,
// history.db with its WAL and SHM, spill and dead-letter files, exports. Showing the "Connect a client"
// snippets writes nothing. Files and folders left 0644/0755 by an older version are made private.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { createAppCore, type AppCore } from '../../src/main/services/app-core';
import { buildEnvironment, realPorts } from '../../src/main/services/bootstrap';
import { silentLogger } from '../../src/main/services/environment';
import { DEMO_GATEWAY_ID } from '../../src/main/services/demo-gateway';
import { openStore, SqliteHistoryWriter } from '../../src/main/history/sqlite';
import { cliPath, waitFor } from '../gateway/helpers';
import { makeExecution } from '../store/fixtures';
import { dispatcherCalls } from './dispatch';
import { repoRoot, tempDir } from './helpers';
import { connectHttpClient, firstToken } from './mcp-client';

const posix = process.platform !== 'win32';

interface Entry {
  path: string;
  mode: number;
  isDir: boolean;
  mtimeMs: number;
  size: number;
}

/** The folder itself and everything under it, with permission bits. */
function walk(dir: string): Entry[] {
  const st = statSync(dir);
  const out: Entry[] = [{ path: dir, mode: st.mode & 0o777, isDir: true, mtimeMs: st.mtimeMs, size: st.size }];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const s = statSync(path);
    if (s.isDirectory()) out.push(...walk(path));
    else out.push({ path, mode: s.mode & 0o777, isDir: false, mtimeMs: s.mtimeMs, size: s.size });
  }
  return out;
}

/** Every folder 0700, every file 0600: the offenders, listed by path and mode (empty when all is well). */
function notPrivate(dir: string): string[] {
  return walk(dir)
    .filter((e) => e.mode !== (e.isDir ? 0o700 : 0o600))
    .map((e) => `${e.path.slice(dir.length) || '/'} ${e.mode.toString(8)}`);
}

const names = (dir: string) => walk(dir).map((e) => e.path.slice(dir.length + 1));

function cli(env: Record<string, string>, ...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8', env: { ...process.env, INTERCEPTOR_CONSOLE_DB: '', ...env } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

let previousUmask: number;
let root: string;
let cleanup: () => void;
beforeAll(() => {
  // A child spawned by a test inherits it: the CLI runs under 022 too.
  previousUmask = process.umask(0o022);
  ({ dir: root, cleanup } = tempDir('ic-private-'));
});
afterAll(() => {
  process.umask(previousUmask);
  cleanup();
});

describe.runIf(posix)('the app under umask 022', () => {
  let core: AppCore;
  let client: Client | undefined;
  let dataDir: string;
  const { call } = dispatcherCalls(() => core);

  beforeAll(async () => {
    dataDir = join(root, 'app-data'); // created by the app
    const env = buildEnvironment({ mode: 'test', packageRoot: repoRoot, dataDir, logger: silentLogger });
    core = createAppCore(env, await realPorts(env));
    await core.start({ demo: true });
  }, 90_000);

  afterAll(async () => {
    await client?.close();
    await core?.shutdown();
  });

  it('creates the data folder 0700 and every file in it 0600, and showing the snippets writes nothing', async () => {
    const demo = await call<{ status: string; listen: { url: string } }>('gateways.get', { id: DEMO_GATEWAY_ID });
    expect(demo.status).toBe('running');
    // Traffic through the demo gateway: history.db, its WAL and SHM.
    const { config } = await call<{ config: Record<string, unknown> }>('gateways.get', { id: DEMO_GATEWAY_ID });
    client = await connectHttpClient(demo.listen.url, firstToken(config));
    await client.callTool({ name: 'echo', arguments: { message: 'private' } });
    await waitFor(() => existsSync(join(dataDir, 'history.db-wal')), 20_000, 'the WAL file');
    // A setting saved; a config saved while running (hot reload → reloads/demo.jsonl).
    await call('settings.update', { theme: 'dark' });
    const loaded = await call<{ text: string }>('chain.load', { id: DEMO_GATEWAY_ID });
    const reloaded = new Promise<void>((resolve) => core.onEvent((e) => e.type === 'gateway.reloaded' && resolve()));
    await call('chain.save', { id: DEMO_GATEWAY_ID, text: loaded.text.replace('"audit"', '"active"') });
    await reloaded;
    await waitFor(() => existsSync(join(dataDir, 'reloads', `${DEMO_GATEWAY_ID}.jsonl`)), 10_000, 'the reload log');

    const files = names(dataDir);
    for (const f of [
      'gateways/demo.json',
      'gateways/registry.json',
      'settings.json',
      'demo-gateway-created',
      'history.db',
      'history.db-wal',
      'history.db-shm',
      'reloads/demo.jsonl',
    ]) {
      expect(files, f).toContain(f);
    }
    expect(notPrivate(dataDir)).toEqual([]);

    // A procedure that only reads writes nothing: the stdio snippet runs the gateway's own file.
    const before = walk(dataDir).filter((e) => !e.path.includes('history.db'));
    const snippets = await call<{ stdio: { command: string } }>('gateways.snippets', { id: DEMO_GATEWAY_ID });
    expect(snippets.stdio.command).toContain(`${join(dataDir, 'gateways', 'demo.json')} --listen stdio`);
    expect(walk(dataDir).filter((e) => !e.path.includes('history.db'))).toEqual(before);
  }, 90_000);
});

describe.runIf(posix)('files left by an older version', () => {
  it('are made private when the app opens the data folder', async () => {
    const dataDir = join(root, 'old-data');
    mkdirSync(join(dataDir, 'gateways'), { recursive: true, mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'settings.json'), '{"theme":"dark"}\n', { mode: 0o644 });
    writeFileSync(join(dataDir, 'gateways', 'registry.json'), '[]\n', { mode: 0o644 });
    openStore(join(dataDir, 'history.db')).close();
    chmodSync(join(dataDir, 'history.db'), 0o644);
    const env = buildEnvironment({ mode: 'test', packageRoot: repoRoot, dataDir, logger: silentLogger });
    const core = createAppCore(env, await realPorts(env));
    try {
      await core.start({ demo: false });
      expect(notPrivate(dataDir)).toEqual([]);
    } finally {
      await core.shutdown();
    }
  }, 60_000);
});

describe.runIf(posix)('the store under umask 022', () => {
  it('creates spill and dead-letter files 0600', async () => {
    const dir = join(root, 'store');
    const path = join(dir, 'history.db');
    const recorder = SqliteHistoryWriter.open(path, {
      writerThread: false,
      busyTimeoutMs: 30,
      maxQueueItems: 5,
      flushTimeoutMs: 300,
      backoff: { baseMs: 20, maxMs: 100 },
    });
    try {
      recorder.recordExecution(makeExecution());
      await recorder.flush();
      // A record the database refuses goes to the dead-letter file.
      const raw = new Database(path);
      raw.exec(`CREATE TRIGGER refuse_poison BEFORE INSERT ON executions WHEN NEW.uuid = 'poison' BEGIN SELECT RAISE(ABORT, 'refused'); END`);
      recorder.recordExecution(makeExecution({ id: 'poison' }));
      await recorder.flush();
      expect(existsSync(recorder.deadLetterPath)).toBe(true);
      // Records beyond the memory bound while the file is locked go to a spill file.
      raw.exec('BEGIN EXCLUSIVE');
      try {
        for (let i = 0; i < 20; i++) recorder.recordExecution(makeExecution());
        await recorder.flush();
        expect(recorder.stats().spilled).toBe(20);
        expect(readdirSync(dir).some((n) => n.includes('.spill-'))).toBe(true);
        expect(notPrivate(dir)).toEqual([]);
      } finally {
        raw.exec('COMMIT');
        raw.close();
      }
    } finally {
      await recorder.close();
    }
  }, 60_000);
});

describe.runIf(posix)('the CLI under umask 022', () => {
  it('import creates the data folder 0700 and history.db 0600; export --out writes a 0600 file', () => {
    const dataDir = join(root, 'cli-data'); // created by the CLI: INTERCEPTOR_CONSOLE_DATA, no --db
    const source = join(root, 'source.db');
    const recorderStore = openStore(source);
    recorderStore.close();
    const env = { INTERCEPTOR_CONSOLE_DATA: dataDir };
    const exported = join(root, 'exports', 'history.jsonl');
    mkdirSync(join(root, 'exports'));
    const first = cli(env, 'export', '--db', source, '--out', exported);
    expect(first.code, first.stderr).toBe(0);
    expect(statSync(exported).mode & 0o777).toBe(0o600);
    const imported = cli(env, 'import', exported);
    expect(imported.code, imported.stderr).toBe(0);
    expect(names(dataDir)).toContain('history.db');
    expect(notPrivate(dataDir)).toEqual([]);
    // Reading commands leave the modes alone and create nothing.
    const before = names(dataDir);
    expect(cli(env, 'history').code).toBe(0);
    expect(names(dataDir)).toEqual(before);
  }, 60_000);
});
