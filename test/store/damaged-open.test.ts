// A history file damaged past its first pages ([path-fidelity] item 10): the `history` command refused it
// on its first query, but the headless gateway and the web console opened it (header and schema intact) and
// their recorders then retried forever against pages that never read. Every open now checks the whole file
// (src/main/history/sqlite/open/integrity-check.ts): the gateway and the history commands refuse it in one line that
// says what to do, the console keeps its history in memory and says why (as for any file it cannot open);
// the file is left untouched. Real CLI processes on a real damaged SQLite file.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteHistoryWriter } from '../../src/main/history/sqlite';
import { cliPath, rawBackend, waitFor, writeConfig } from '../gateway/helpers';
import { makeExecution, tempDir } from './fixtures';

const DAMAGED = /is damaged \(database disk image is malformed\)\. It was left untouched; restore it from a backup or an export, or use another file with --db/;

let dir: string;
let cleanup: () => void;
let db: string;
let before: string;
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const env = () => ({ ...process.env, INTERCEPTOR_CONSOLE_DB: '', INTERCEPTOR_CONSOLE_DATA: join(dir, 'data') });

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('ic-damaged-open-'));
  db = join(dir, 'history.db');
  const recorder = SqliteHistoryWriter.open(db, { writerThread: false });
  for (let i = 0; i < 300; i++) recorder.recordExecution(makeExecution({ text: `row ${i} ${'padding '.repeat(150)}` }));
  await recorder.close();
  // Twenty pages in the middle overwritten: the header and the schema still read.
  const fd = openSync(db, 'r+');
  writeSync(fd, Buffer.alloc(4096 * 20, 0x5a), 0, 4096 * 20, 4096 * 100);
  closeSync(fd);
  before = sha(db);
}, 60_000);
afterAll(() => cleanup?.());

/** Runs the CLI until it exits, or until `ready` shows in its output (it started: killed, code null). */
function run(args: string[], ready: RegExp, timeoutMs = 20_000): Promise<{ code: number | null; output: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], { env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let stderr = '';
    const started = () => {
      if (!ready.test(output)) return;
      clearTimeout(timer);
      child.kill('SIGKILL');
    };
    child.stdout.on('data', (c: Buffer) => ((output += c.toString()), started()));
    child.stderr.on('data', (c: Buffer) => ((output += c.toString()), (stderr += c.toString()), started()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, stderr });
    });
  });
}

const oneLineError = (stderr: string) => {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
};

describe('a history damaged past its first pages', () => {
  it('the headless gateway refuses it at start instead of recording into it', async () => {
    const config = writeConfig({ backend: rawBackend() });
    const r = await run(['gateway', '--config', config, '--db', db, '--no-watch'], /running on stdio|recording to/);
    expect(r.code, `the gateway started on the damaged file:\n${r.output}`).toBe(1);
    oneLineError(r.stderr);
    expect(r.stderr).toMatch(DAMAGED);
    expect(r.stderr).toMatch(/--no-record/);
    expect(sha(db)).toBe(before);
  }, 30_000);

  it('the web console does not open it: it keeps history in memory and says why (app.info storeError)', async () => {
    const child = spawn(process.execPath, [cliPath, 'web', '--port', '0', '--data-dir', join(dir, 'web-data'), '--db', db, '--no-demo'], {
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    try {
      await waitFor(() => /#token=[\w-]+/.test(output), 20_000, `the console URL:\n${output}`);
      const url = new URL(/(http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/.exec(output)![1]!);
      const token = url.hash.replace('#token=', '');
      const res = await fetch(new URL('/api/call/app.info', url), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' });
      const info = (await res.json()) as { ok: boolean; value?: { storeError?: string } };
      expect(info.ok, JSON.stringify(info)).toBe(true);
      expect(info.value?.storeError, `the console opened the damaged file:\n${output}`).toMatch(DAMAGED);
      expect(output).toMatch(/history store unavailable, keeping history in memory only: .*is damaged/);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    expect(sha(db)).toBe(before);
  }, 40_000);

  it('the history command refuses it even for a page that reads', () => {
    const r = spawnSync(process.execPath, [cliPath, 'history', '--db', db, '--limit', '1'], { env: env(), encoding: 'utf8' });
    expect(r.status).toBe(1);
    oneLineError(r.stderr);
    expect(r.stderr).toMatch(DAMAGED);
    expect(sha(db)).toBe(before);
  });
});
