// Crash safety: a recorder killed with SIGKILL before its writer committed anything loses nothing that its
// journal holds; the next recorder on the database replays the journal, once (idempotent by uuid).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { countExecutions, openStore, SqliteHistoryWriter } from '../../src/main/history/sqlite';
import { tempDir } from './fixtures';
import { waitFor } from '../support/wait-for';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('./helpers/record-then-die.ts', import.meta.url));
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function recordThenDie(db: string, count: number): Promise<{ signal: string | null; written: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, db, String(count)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      const line = out.trim().split('\n').at(-1);
      if (!line) return reject(new Error(`the child printed nothing: ${err}`));
      resolve({ signal, ...(JSON.parse(line) as { written: number }) });
    });
  });
}

const until = (done: () => boolean, timeoutMs = 20_000) => waitFor(done, timeoutMs, 'the replay', 10);

describe('the recorder journal', () => {
  it('replays what a SIGKILLed recorder had not committed, exactly once', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const db = join(t.dir, 'history.db');
    const N = 300;
    const died = await recordThenDie(db, N);
    expect(died.signal).toBe('SIGKILL');
    expect(died.written).toBe(0); // nothing reached the database before the kill
    expect(readdirSync(t.dir).some((n) => n.includes('.journal-'))).toBe(true);

    // The replay runs in the background of the next recorder (it is an adopted spill file): wait for it.
    const next = SqliteHistoryWriter.open(db, { journal: true });
    expect(next.stats().spilled).toBe(N);
    await until(() => next.stats().queued === 0);
    await next.close();
    const store = openStore(db, { create: false });
    try {
      expect(countExecutions(store.db)).toBe(N);
      expect(store.db.prepare('SELECT count(DISTINCT uuid) FROM executions').pluck().get()).toBe(N);
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      store.close();
    }
    // Replayed and gone: a third recorder has nothing to replay.
    expect(readdirSync(t.dir).filter((n) => n.includes('.journal-') || n.includes('.spill-'))).toEqual([]);
  });

  it('is emptied once the database holds everything, and removed on close', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const db = join(t.dir, 'history.db');
    const { makeExecution } = await import('./fixtures');
    const recorder = SqliteHistoryWriter.open(db, { journal: true, journalIntervalMs: 1 });
    for (let i = 0; i < 50; i++) recorder.recordExecution(makeExecution());
    await recorder.flush();
    expect(recorder.stats().written).toBe(50);
    await recorder.close();
    expect(readdirSync(t.dir).filter((n) => n.includes('.journal-'))).toEqual([]);
  });
});
