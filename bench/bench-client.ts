// The client side of the stdio benches (path, gateway, otel): a process started over stdio (a gateway, or a relay in front of the backend)
// and a client connected to it, one of two kinds.
// - 'sdk': the official TypeScript SDK's Client over its StdioClientTransport, calling `callTool` as an MCP host
//   would. [path-speed] defines its table with an SDK client, so this is how that table is measured.
// - 'line': a minimal JSON-line client (LineClient below) that adds as little as possible on top of the
//   hop itself. The SDK client's own cost per call is in every row alike; the line client leaves it out, so
//   its ratios are the stricter view of the same path (bench/gateway.ts's older bench uses only this one).
// Either way the protocol is 2025-11-25 (what server-everything speaks), so the relay and the gateway rows
// carry the same messages.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** What a timed block needs of a client: one `tools/call echo` (ECHO_CALL), resolved when answered. */
export interface EchoClient {
  callEcho(): Promise<void>;
}

/** A minimal JSON-line client: the measuring side adds as little as possible on top of the hop itself. */
export class LineClient implements EchoClient {
  private buffer = '';
  private waiting = new Map<number, () => void>();
  private nextId = 1;
  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      this.buffer += text;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        const msg = JSON.parse(line) as { id?: number; result?: unknown; error?: { message: string } };
        if (msg.error) throw new Error(`bench call failed: ${msg.error.message}`);
        if (typeof msg.id === 'number') this.waiting.get(msg.id)?.();
      }
    });
  }
  call(method: string, params: Record<string, unknown>): Promise<void> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, () => {
        this.waiting.delete(id);
        resolve();
      });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }
  callEcho(): Promise<void> {
    return this.call('tools/call', ECHO_CALL);
  }
  notify(method: string): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }
}

/** The call every path bench makes: server-everything's echo tool with a short message. */
export const ECHO_CALL = { name: 'echo', arguments: { message: 'please forward to bench@example.com' } };

/** `calls` sequential `tools/call echo` on `client`: each call's time (ms) and the whole block's. */
export async function timeEchoCalls(client: EchoClient, calls: number): Promise<{ samples: number[]; totalMs: number }> {
  const samples: number[] = [];
  const start = performance.now();
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await client.callEcho();
    samples.push(performance.now() - t0);
  }
  return { samples, totalMs: performance.now() - start };
}

export type ClientKind = 'sdk' | 'line';

export const CLIENT_KINDS: readonly ClientKind[] = ['sdk', 'line'];

const PROTOCOL_VERSION = '2025-11-25';

export interface BenchConnection extends EchoClient {
  /** The started process (the gateway or the relay), for its CPU in /proc. */
  readonly pid: number;
  /** Called once if the process ends or its stdio closes before stop(): the bench cannot go on. */
  onUnexpectedEnd(listener: (how: string) => void): void;
  stop(): Promise<void>;
}

/** Starts `node <args>` and connects a client of `kind` to it (initialized, ready for calls). */
export async function connect(kind: ClientKind, args: string[]): Promise<BenchConnection> {
  return kind === 'sdk' ? connectSdk(args) : connectLine(args);
}

/** BENCH_PATH_CLIENT as a client kind: 'sdk' unless set; anything else is refused with what is accepted. */
export function clientKindFromEnv(value: string | undefined): ClientKind {
  const kind = value ?? 'sdk';
  if (!(CLIENT_KINDS as readonly string[]).includes(kind)) {
    throw new Error(`BENCH_PATH_CLIENT=${kind}: expected one of ${CLIENT_KINDS.join(', ')} (sdk: the official SDK's Client; line: a bare JSON-line client)`);
  }
  return kind as ClientKind;
}

async function connectLine(args: string[]): Promise<BenchConnection> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] }) as unknown as ChildProcessWithoutNullStreams;
  const client = new LineClient(child);
  let stopping = false;
  await client.call('initialize', { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  client.notify('notifications/initialized');
  return {
    pid: child.pid!,
    callEcho: () => client.callEcho(),
    onUnexpectedEnd(listener) {
      child.once('exit', (code, signal) => {
        if (!stopping) listener(signal ?? `exit code ${code}`);
      });
    },
    async stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

async function connectSdk(args: string[]): Promise<BenchConnection> {
  // The caller's environment, as the line client's spawn passes it (the SDK's default keeps only a safe few).
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args, env, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: {}, versionNegotiation: { mode: 'legacy' } });
  let stopping = false;
  let ended: ((how: string) => void) | undefined;
  client.onclose = () => {
    if (!stopping) ended?.('its stdio closed');
  };
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error('the SDK transport started no process');
  // 'legacy' negotiates by initialize: the newest version both ends speak, which is server-everything's.
  const version = client.getNegotiatedProtocolVersion();
  if (version !== PROTOCOL_VERSION) {
    await client.close();
    throw new Error(`the SDK client negotiated ${String(version)}, not ${PROTOCOL_VERSION}: the rows would not carry the same messages`);
  }
  return {
    pid,
    async callEcho() {
      const result = await client.callTool(ECHO_CALL);
      if (result.isError) throw new Error(`bench call failed: ${JSON.stringify(result.content)}`);
    },
    onUnexpectedEnd(listener) {
      ended = listener;
    },
    async stop() {
      stopping = true;
      await client.close();
    },
  };
}
