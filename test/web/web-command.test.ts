// The `web` command and `npm start`: usage errors exit 2 with a message; without the Electron runtime
// `npm start` falls back to web mode and prints a URL that serves the console.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../app/helpers';

const cli = join(repoRoot, 'out', 'cli', 'index.js');

describe('interceptor-console web', () => {
  it.each([
    [['--port', 'abc'], /--port must be an integer/],
    [['--port', '70000'], /--port must be an integer/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['extra'], /Unexpected argument 'extra'|positional/i],
  ])('rejects %j with exit 2', (args, message) => {
    const r = spawnSync(process.execPath, [cli, 'web', ...args], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('Usage: interceptor-console web');
  });

  it('npm start falls back to web mode without the Electron runtime and serves the console', async () => {
    const t = tempDir('ic-start-');
    const child = spawn(process.execPath, [join(repoRoot, 'scripts', 'start.mjs'), '--port', '0', '--data-dir', t.dir, '--no-demo'], {
      cwd: repoRoot,
      env: { ...process.env, INTERCEPTOR_CONSOLE_WEB: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed:\n${out}`)), 20_000);
        child.stdout.on('data', () => {
          const m = /(http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      });
      expect(out).toContain('Starting web mode (INTERCEPTOR_CONSOLE_WEB=1)');
      // The token is in the fragment, which a client never sends: the page comes without it, the API needs it.
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('set-cookie')).toBeNull();
      expect(await page.text()).toContain('<div id="root">');
      const token = new URL(url).hash.replace('#token=', '');
      const call = (headers: Record<string, string>) => fetch(new URL('/api/call/app.info', url), { method: 'POST', headers, body: '{}' });
      expect((await call({})).status).toBe(401);
      expect((await call({ authorization: `Bearer ${token}` })).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      t.cleanup();
    }
  });
});
