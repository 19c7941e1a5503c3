// Shared by the gateway tests: real processes only (the built CLI, server-everything, fixture servers).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../support/wait-for';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const cliPath = join(root, 'out/cli/index.js');
export const everythingBin = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const rawBackendPath = join(root, 'test/gateway/fixtures/raw-backend.mjs');

export const everythingBackend = { transport: 'stdio', name: 'everything', command: process.execPath, arguments: [everythingBin, 'stdio'] };
export const rawBackend = (name = 'raw', extra: string[] = []) => ({
  transport: 'stdio',
  name,
  command: process.execPath,
  arguments: [rawBackendPath, ...extra],
});

export function writeConfig(config: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ic-gw-'));
  const file = join(dir, 'gateway.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

export function gatewayArgs(configPath: string, ...extra: string[]): string[] {
  return [cliPath, 'gateway', '--config', configPath, '--no-record', ...extra];
}

/**
 * True while a process with this pid runs. A zombie does not: it has ended and only waits to be reaped, which for
 * an orphan is up to init, however long that takes (read from /proc where there is one).
 */
export function alive(pid: number): boolean {
  if (existsSync('/proc/self/stat')) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat[stat.lastIndexOf(')') + 2] !== 'Z';
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// The suites' one polling helper, re-exported where these tests import from.
export { waitFor };

/** A bare JSON-line client over the gateway's stdio: sees exactly the bytes the gateway writes. */
export class LineClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: Record<string, unknown>[] = [];
  stderr = '';
  stdoutNonJson: string[] = [];
  private buffer = '';
  exit?: { code: number | null; signal: NodeJS.Signals | null };

  constructor(args: string[], env: NodeJS.ProcessEnv = process.env) {
    this.child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => {
      this.buffer += text;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        try {
          this.messages.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          this.stdoutNonJson.push(line);
        }
      }
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (t: string) => (this.stderr += t));
    this.child.on('exit', (code, signal) => (this.exit = { code, signal }));
  }

  writeLine(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  send(message: Record<string, unknown>): void {
    this.writeLine(JSON.stringify({ jsonrpc: '2.0', ...message }));
  }

  async response(id: unknown, timeoutMs = 20_000): Promise<Record<string, unknown>> {
    await waitFor(
      () => this.messages.some((m) => m.id === id && ('result' in m || 'error' in m)),
      timeoutMs,
      `response ${String(id)}; stderr:\n${this.stderr}`,
    );
    return this.messages.find((m) => m.id === id && ('result' in m || 'error' in m))!;
  }

  async request(id: number | string, method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    this.send({ id, method, ...(params ? { params } : {}) });
    return this.response(id);
  }

  async initialize(protocolVersion = '2025-06-18', capabilities: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const res = await this.request('init', 'initialize', { protocolVersion, capabilities, clientInfo: { name: 'line-client', version: '1' } });
    this.send({ method: 'notifications/initialized' });
    return res;
  }

  async stop(): Promise<void> {
    if (this.exit) return;
    this.child.kill('SIGTERM');
    await waitFor(() => this.exit !== undefined, 10_000, 'gateway exit');
  }
}

/** A port that was free a moment ago (for servers that take a port number, not 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Every descendant of `pid` (Linux /proc): what must be gone after a clean stop. `skipZombies` leaves out
 * processes that have exited but not been reaped yet (the chaos tests watch their own worker's children,
 * whose exit statuses the runner collects in its own time).
 */
export function descendants(pid: number, options: { skipZombies?: boolean } = {}): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (options.skipZombies && fields[0] === 'Z') continue;
      const ppid = Number(fields[1]);
      const list = parents.get(ppid) ?? [];
      list.push(Number(entry));
      parents.set(ppid, list);
    } catch {
      // The process ended while we looked.
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const child of parents.get(p) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}
