// `npm start` as a real process tree (npm → sh → scripts/start.mjs → web mode): SIGTERM to npm, which is
// what a service manager or a terminal's kill sends, stops the console it started. Before the fix the
// shell died and left start.mjs and web mode running, re-parented, holding their port (issue #19).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../e2e/harness';
import { waitFor } from '../support/wait-for';

/** Pids of live processes whose command line mentions `marker` (here: the run's own data folder). */
function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // A zombie has exited already (its parent has not reaped it yet).
      if (cmdline.includes(marker) && !/^\d+ \(.*\) Z /.test(stat)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

const dataDir = mkdtempSync(join(tmpdir(), 'ic-start-signal-'));

afterAll(() => {
  // Whatever is left (a failing run): stop it by pid, then drop the folder.
  for (const pid of processesWith(dataDir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('npm start and signals (real process tree)', () => {
  it('SIGTERM to npm stops start.mjs and the web-mode console it started', { timeout: 120_000 }, async () => {
    const npm = spawn('npm', ['start', '--', '--port', '0', '--data-dir', dataDir, '--no-demo'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, INTERCEPTOR_CONSOLE_WEB: '1', INTERCEPTOR_CONSOLE_DB: '' },
    });
    let out = '';
    npm.stdout.on('data', (c: Buffer) => (out += c.toString()));
    npm.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start printed no URL within 60 s:\n${out}`)), 60_000);
      npm.stdout.on('data', () => {
        const m = /(http:\/\/127\.0\.0\.1:\d+)\/#token=/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    // The tree: npm's shell, start.mjs and web mode all carry the data folder in their arguments.
    expect(processesWith(dataDir).length).toBeGreaterThanOrEqual(2);
    expect((await fetch(url)).status).toBe(200);

    const npmExited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
    npm.kill('SIGTERM');
    await npmExited;
    // Wait on the condition itself, with a generous deadline for a loaded machine.
    await waitFor(() => processesWith(dataDir).length === 0, 30_000, `no process left with ${dataDir}`, 200).catch(() => undefined);
    expect(processesWith(dataDir), 'processes left running after SIGTERM to npm').toEqual([]);
    await expect(fetch(url)).rejects.toThrow();
  });
});
