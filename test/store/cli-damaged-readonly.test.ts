// The history commands on files that are not in a normal state (#16 item 6): a history on a
// read-only path is read (history, export) without being written, read-only in place or from a
// private copy when SQLite cannot open it in place; commands that must write say so in one line; a
// file damaged past its first pages gives a one-line error from every command, never a stack trace.
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteHistoryWriter } from '../../src/main/history/sqlite';
import { cliPath, root } from '../gateway/helpers';
import { makeExecution, tempDir } from './fixtures';

const EXECUTIONS = 300;
const asRoot = process.getuid?.() === 0;

let dir: string;
let cleanup: () => void;
/** The CLI the cases run as nobody: the build itself, or a copy nobody can reach (see beforeAll). */
let nobodysCli = cliPath;
let cleanupCopy = () => {};

const nobodyCanRead = (path: string) =>
  spawnSync(process.execPath, ['-e', `require('node:fs').accessSync(${JSON.stringify(path)}, 4)`], {
    uid: 65534,
    gid: 65534,
  }).status === 0;

/**
 * A checkout under a private folder (mktemp -d is 0700) is out of nobody's reach: the built CLI and the
 * node_modules it loads are then linked (hard links, a copy across file systems) into a folder nobody can
 * traverse. Only out/cli, node_modules and package.json: the history commands load nothing else.
 */
function copyOfTheCliForNobody(): { cli: string; cleanup: () => void } {
  const { dir: copy, cleanup } = tempDir('ic-cli-for-nobody-');
  chmodSync(copy, 0o755);
  mkdirSync(join(copy, 'out'), { mode: 0o755 });
  for (const part of ['out/cli', 'node_modules', 'package.json']) {
    const linked = spawnSync('cp', ['-al', join(root, part), join(copy, part)]);
    if (linked.status !== 0) {
      rmSync(join(copy, part), { recursive: true, force: true }); // a partial tree of links (another file system)
      const copied = spawnSync('cp', ['-a', join(root, part), join(copy, part)], { encoding: 'utf8' });
      if (copied.status !== 0) throw new Error(`Could not copy ${part} for user nobody: ${copied.stderr.trim()}`);
    }
  }
  return { cli: join(copy, 'out/cli/index.js'), cleanup };
}

beforeAll(() => {
  if (asRoot && !nobodyCanRead(cliPath)) {
    // As root the CLI runs as nobody (below), who must reach the build.
    ({ cli: nobodysCli, cleanup: cleanupCopy } = copyOfTheCliForNobody());
    if (!nobodyCanRead(nobodysCli)) {
      throw new Error(
        `These cases run the CLI as user nobody (65534), who can reach neither ${cliPath} nor a copy under ${tmpdir()}: make the checkout's parent folders traversable (chmod o+x) or run the tests as a user other than root.`,
      );
    }
  }
  ({ dir, cleanup } = tempDir('ic-store-states-'));
  chmodSync(dir, 0o755); // another user (below) must reach the files in it
}, 120_000);
afterAll(() => {
  cleanupCopy();
  // Unset when beforeAll refused to run the cases (its own error says why): nothing to clean then.
  if (dir === undefined) return;
  chmodSync(dir, 0o700);
  cleanup();
});

let n = 0;
async function recordedFile(folder: string): Promise<string> {
  const path = join(folder, `history-${++n}.db`);
  const recorder = SqliteHistoryWriter.open(path, { writerThread: false });
  for (let i = 0; i < EXECUTIONS; i++) recorder.recordExecution(makeExecution({ text: `row ${i} ${'padding '.repeat(150)}` }));
  await recorder.close();
  return path;
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/**
 * Runs the CLI as a user who may not write `file` (nor, with `folderWritable: false`, its folder):
 * as root, permissions do not bind, so the child runs as nobody; otherwise the modes are lowered.
 */
function cliWithoutWriteAccess(file: string, folder: string, folderWritable: boolean, ...args: string[]) {
  chmodSync(file, 0o444);
  chmodSync(folder, folderWritable ? 0o777 : 0o555);
  try {
    const r = spawnSync(process.execPath, [nobodysCli, ...args], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, INTERCEPTOR_CONSOLE_DB: '', INTERCEPTOR_CONSOLE_DATA: join(dir, 'unused-data') },
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  } finally {
    chmodSync(folder, 0o755);
    chmodSync(file, 0o644);
  }
}

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [cliPath, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, INTERCEPTOR_CONSOLE_DB: '', INTERCEPTOR_CONSOLE_DATA: join(dir, 'unused-data') },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const oneLineError = (stderr: string) => {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(stderr).not.toMatch(/^\s+at /m);
};

describe.runIf(process.platform !== 'win32')('a history on a read-only path', () => {
  it.each([
    ['a read-only folder (read from a private copy)', false, /from a temporary copy/],
    // SQLite itself falls back to a read-only connection here: nothing to say, nothing written.
    ['a read-only file in a writable folder (read in place)', true, undefined],
  ])(
    'in %s: history and export read it, prune says it cannot write, the file is unchanged',
    async (_what, folderWritable, how) => {
      const folder = join(dir, `ro-${folderWritable ? 'file' : 'folder'}`);
      spawnSync('mkdir', ['-p', folder]);
      chmodSync(folder, 0o755);
      const db = await recordedFile(folder);
      const before = sha(db);
      // SQLite's own -wal and -shm files may appear beside a file read in place: the file itself stays as it was.
      const files = () =>
        readdirSync(folder)
          .filter((f) => !/-(wal|shm)$/.test(f))
          .sort();
      const entries = files();

      const history = cliWithoutWriteAccess(db, folder, folderWritable, 'history', '--db', db, '--limit', '5');
      expect(history.code, history.stderr).toBe(0);
      expect(history.stdout.trim().split('\n')).toHaveLength(2 + 5);
      if (how) expect(history.stderr).toMatch(how);
      expect(history.stderr).not.toMatch(/error/);

      const exported = cliWithoutWriteAccess(db, folder, folderWritable, 'export', '--db', db);
      expect(exported.code, exported.stderr).toBe(0);
      expect(
        exported.stdout
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('{"type":"execution"')),
      ).toHaveLength(EXECUTIONS);

      const prune = cliWithoutWriteAccess(db, folder, folderWritable, 'prune', '--db', db, '--max-executions', '1');
      expect(prune.code).toBe(1);
      oneLineError(prune.stderr);
      expect(prune.stderr).toMatch(/cannot be written here.*read-only path/);

      expect(sha(db)).toBe(before);
      expect(files()).toEqual(entries);
    },
    60_000,
  );
});

describe('a history damaged past its first pages', () => {
  it('gives a one-line error from prune, history and export, never a stack trace', async () => {
    const db = await recordedFile(dir);
    // Twenty pages in the middle of the file overwritten: it opens (the header and the schema are
    // intact), and the damage is found by the first query that reads those pages.
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(4096 * 20, 0x5a), 0, 4096 * 20, 4096 * 100);
    closeSync(fd);

    for (const args of [
      ['prune', '--db', db, '--max-executions', '1'],
      ['history', '--db', db, '--limit', '1000', '--json'],
      ['export', '--db', db],
    ]) {
      const r = cli(...args);
      expect(r.code, args[0]).toBe(1);
      oneLineError(r.stderr);
      expect(r.stderr, args[0]).toMatch(/is damaged \(database disk image is malformed\).*restore it from a backup or an export/);
    }
  }, 60_000);
});
