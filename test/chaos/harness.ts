// The chaos suite's parts: a real gateway process (the built CLI), the misbehaving backend
// (fixtures/chaos-backend.mjs), a bare Streamable HTTP client (fetch: it can DELETE, vanish or be cut off
// mid-call, which an SDK client would not do), and what the suite checks afterwards: the history file
// and the processes left behind. Shared with bench/chaos.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getExecutionRecord, openStore } from '../../src/main/history/sqlite';
import { descendants as descendantsOf } from '../gateway/helpers';
import { waitFor } from '../support/wait-for';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const cliPath = join(root, 'out/cli/index.js');
export const chaosBackendPath = join(root, 'test/chaos/fixtures/chaos-backend.mjs');

export interface ChaosDir {
  dir: string;
  db: string;
  ranFile: string;
  cancelFile: string;
  cleanup(): void;
}

export function chaosDir(): ChaosDir {
  const dir = mkdtempSync(join(tmpdir(), 'ic-chaos-'));
  return {
    dir,
    db: join(dir, 'history.db'),
    ranFile: join(dir, 'ran.txt'),
    cancelFile: join(dir, 'cancelled.jsonl'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function chaosBackend(d: ChaosDir, extra: string[] = []): Record<string, unknown> {
  return {
    transport: 'stdio',
    name: 'chaos',
    command: process.execPath,
    arguments: [chaosBackendPath, ...extra],
    env: { CHAOS_RAN_FILE: d.ranFile, CHAOS_CANCEL_FILE: d.cancelFile },
  };
}

/** A gateway process on an HTTP port chosen by the OS; resolves once it printed its URL. */
export class GatewayProcess {
  readonly child: ChildProcess;
  url = '';
  stderr = '';
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  readonly exited: Promise<void>;

  constructor(d: ChaosDir, config: Record<string, unknown>, extraArgs: string[] = []) {
    const file = join(d.dir, `gateway-${Date.now()}-${Math.random().toString(16).slice(2)}.json`);
    writeFileSync(file, JSON.stringify({ listen: { transport: 'http', port: 0 }, ...config }));
    this.child = spawn(process.execPath, [cliPath, 'gateway', '--config', file, '--db', d.db, '--no-watch', ...extraArgs], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (t: string) => (this.stderr += t));
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve();
      }),
    );
  }

  async ready(timeoutMs = 30_000): Promise<string> {
    await waitFor(() => /listening on (http\S+)/.test(this.stderr) || this.exit !== undefined, timeoutMs, 'gateway listening');
    if (this.exit) throw new Error(`the gateway exited at start: ${this.stderr}`);
    this.url = /listening on (http\S+)/.exec(this.stderr)![1]!;
    return this.url;
  }

  get pid(): number {
    return this.child.pid!;
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 30_000): Promise<void> {
    if (this.exit) return;
    this.child.kill(signal);
    await Promise.race([
      this.exited,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`gateway did not exit after ${signal}: ${this.stderr}`)), timeoutMs)),
    ]);
  }
}

export type RpcAnswer = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

/** One Streamable HTTP client session, spoken with fetch. */
export class HttpSession {
  sessionId = '';
  private seq = 0;

  constructor(readonly url: string) {}

  async initialize(): Promise<void> {
    const res = await this.post({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'chaos', version: '1' } },
    });
    if (res.status !== 200) throw new Error(`initialize: HTTP ${res.status} ${await res.text()}`);
    this.sessionId = res.headers.get('mcp-session-id') ?? '';
    await readAnswer(res, 'init');
    await (await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  }

  /** Sends a request and reads its answer (resolves with the JSON-RPC answer, or rejects on a broken stream). */
  async call(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<RpcAnswer> {
    const id = ++this.seq;
    const res = await this.post({ jsonrpc: '2.0', id, method, params }, signal);
    if (res.status !== 200) return { id, error: { code: -res.status, message: await res.text() } };
    return readAnswer(res, id);
  }

  tool(name: string, args: Record<string, unknown> = {}, signal?: AbortSignal): Promise<RpcAnswer> {
    return this.call('tools/call', { name, arguments: args }, signal);
  }

  async delete(): Promise<number> {
    const res = await fetch(this.url, { method: 'DELETE', headers: this.headers() });
    await res.text();
    return res.status;
  }

  post(body: unknown, signal?: AbortSignal): Promise<Response> {
    return fetch(this.url, {
      method: 'POST',
      headers: { ...this.headers(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  }

  private headers(): Record<string, string> {
    return { ...(this.sessionId ? { 'mcp-session-id': this.sessionId, 'mcp-protocol-version': '2025-06-18' } : {}) };
  }
}

/** The JSON-RPC answer with this id from a JSON or SSE response body. */
async function readAnswer(res: Response, id: unknown): Promise<RpcAnswer> {
  const text = await res.text();
  const bodies = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
    : [text];
  for (const body of bodies) {
    if (!body) continue;
    const m = JSON.parse(body) as RpcAnswer;
    if (m.id === id && ('result' in m || 'error' in m)) return m;
  }
  throw new Error(`no answer for id ${String(id)} in: ${text.slice(0, 300)}`);
}

// The suites' one polling helper, re-exported where these tests import from.
export { waitFor };

/** Keys the backend logged as run (one per line). */
export function ranKeys(d: ChaosDir): string[] {
  return existsSync(d.ranFile) ? readFileSync(d.ranFile, 'utf8').split('\n').filter(Boolean) : [];
}

export interface RecordedCall {
  key: string | undefined;
  outcome: string;
  error: { code: number; message: string; data?: unknown } | undefined;
  target: string | undefined;
}

/** tools/call executions in the history file with their `key` argument; also runs PRAGMA integrity_check. */
export function recordedCalls(db: string): { calls: RecordedCall[]; integrity: string } {
  const store = openStore(db, { create: false });
  try {
    const integrity = store.db.pragma('integrity_check', { simple: true }) as string;
    const uuids = store.db.prepare(`SELECT uuid FROM executions WHERE event = 'tools/call'`).pluck().all() as string[];
    const calls = uuids.map((uuid) => {
      const r = getExecutionRecord(store.db, uuid)!;
      return {
        key: (r.requestReceived as { arguments?: { key?: string } } | undefined)?.arguments?.key,
        outcome: r.outcome,
        error: r.errorReturned,
        target: r.target,
      };
    });
    return { calls, integrity };
  } finally {
    store.close();
  }
}

/** Live descendants of a process (Linux /proc): what must be gone after a stop. */
export function descendants(pid: number): number[] {
  return descendantsOf(pid, { skipZombies: true });
}

/** Processes whose command line mentions `needle` (to find backends a killed gateway left behind). */
export function processesMatching(needle: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) out.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}
