// Two real processes record into the same file at the same time (WAL, busy timeout, retries):
// nothing is lost, and a reader sees consistent pages meanwhile.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { countExecutions, listExecutions, openStore } from '../../src/main/history/sqlite';
import { tempDir } from './fixtures';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('./helpers/write-executions.ts', import.meta.url));
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function writer(db: string, count: number, prefix: string, base: number, busyTimeoutMs?: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const args = ['--import', 'tsx', script, db, String(count), prefix, String(base), ...(busyTimeoutMs !== undefined ? [String(busyTimeoutMs)] : [])];
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${prefix} exited with ${code}: ${err}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>);
    });
  });
}

describe('two processes writing one history file', () => {
  it.each([
    ['with the default busy timeout', undefined],
    ['with a 1 ms busy timeout (retries do the waiting)', 1],
  ])(
    'lose nothing %s',
    async (_name, busy) => {
      const t = tempDir();
      cleanups.push(t.cleanup);
      const db = join(t.dir, 'shared.db');
      openStore(db).close(); // both children open an existing, migrated file
      const N = 1500;
      const base = Date.UTC(2025, 0, 1);
      const reader = openStore(db, { create: false });
      // A reader pages the file while both write. An expect() inside the timer would throw into the
      // timer, not into the test: each page is kept, and checked below.
      const pages: string[][] = [];
      const reading = setInterval(() => pages.push(listExecutions(reader.db, {}, { limit: 50 }).items.map((i) => i.startedAt)), 20);
      let results: Record<string, unknown>[];
      try {
        results = await Promise.all([writer(db, N, 'aaaaaaaa', base, busy), writer(db, N, 'bbbbbbbb', base, busy)]);
      } finally {
        clearInterval(reading);
      }
      for (const stats of results) expect(stats).toMatchObject({ written: N, lost: 0, rejected: 0, queued: 0 });
      expect(countExecutions(reader.db)).toBe(2 * N);
      expect(countExecutions(reader.db, { gateway: 'aaaaaaaa' })).toBe(N);
      expect(countExecutions(reader.db, { gateway: 'bbbbbbbb' })).toBe(N);
      expect(reader.db.prepare('SELECT count(DISTINCT uuid) FROM executions').pluck().get()).toBe(2 * N);
      expect(pages.length).toBeGreaterThan(0);
      // Every page the reader saw while both wrote was newest first.
      for (const keys of pages) expect(keys).toEqual([...keys].sort().reverse());
      reader.close();
    },
    120_000,
  );
});
