// Web mode's API bodies are bounded (32 MB, src/main/web/server.ts): a larger one is answered 413 with a JSON
// error that says what to do, whether its size is declared (Content-Length) or only found while reading
// (chunked). It used to destroy the socket mid-upload: the client saw a reset and no answer
// ([path-fidelity] item 10). Against the real `web` command.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../app/helpers';

const cli = join(repoRoot, 'out', 'cli', 'index.js');
const LIMIT = 32 * 1024 * 1024;

let child: ChildProcess;
let base: URL;
let token: string;
let cleanup: () => void;

beforeAll(async () => {
  const t = tempDir('ic-web-body-');
  cleanup = t.cleanup;
  child = spawn(process.execPath, [cli, 'web', '--port', '0', '--data-dir', join(t.dir, 'data'), '--no-demo'], {
    env: { ...process.env, INTERCEPTOR_CONSOLE_DB: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed:\n${out}`)), 20_000);
    child.stdout!.on('data', () => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  base = new URL(url);
  token = base.hash.replace('#token=', '');
}, 30_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  cleanup?.();
});

/** POSTs `size` bytes (a JSON string) to app.info, declared or chunked; the status and the parsed answer. */
function post(size: number, chunked: boolean): Promise<{ status: number; body: { ok: boolean; error?: { code: string; message: string } } }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json', host: base.host };
    if (!chunked) headers['content-length'] = String(size);
    const req = request({ host: '127.0.0.1', port: Number(base.port), path: '/api/call/app.info', method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as never }));
    });
    req.on('error', reject);
    // A JSON string of `size` bytes, written in 1 MB pieces as a client uploading it would.
    const piece = Buffer.alloc(1024 * 1024, 0x61);
    let left = size - 2;
    req.write('"');
    const more = () => {
      while (left > 0) {
        const n = Math.min(left, piece.length);
        left -= n;
        if (!req.write(piece.subarray(0, n))) return void req.once('drain', more);
      }
      req.end('"');
    };
    more();
  });
}

describe('web API body limit', () => {
  it.each([
    ['declared with Content-Length', false],
    ['sent chunked, found while reading', true],
  ])(
    'a body over 32 MB %s gets 413 with a JSON error',
    async (_how, chunked) => {
      const r = await post(LIMIT + 1024 * 1024, chunked);
      expect(r.status).toBe(413);
      expect(r.body.ok).toBe(false);
      expect(r.body.error?.code).toBe('invalid_input');
      expect(r.body.error?.message).toMatch(/larger than the web API's limit of 32 MB; send less at once/);
    },
    60_000,
  );

  it('a body under the limit is still served, and the server keeps serving after a refused one', async () => {
    const ok = await fetch(new URL('/api/call/app.info', base), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { ok: boolean }).ok).toBe(true);
  });
});
