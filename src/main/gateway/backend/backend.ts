// The connection to the backend MCP server: a child process over stdio, or Streamable HTTP / SSE.
// It knows nothing about MCP semantics; the session decides what to send. What it owns: starting, telling
// precisely why a start failed (the command and the tail of its stderr), noticing a crash, and stopping
// children for good (the whole process group, so `npx`-style wrappers do not leave servers behind).
import type { ChildProcess } from 'node:child_process';
import spawn from 'cross-spawn';
import { OWN_PROCESS_GROUP, stopGroup } from '../../processes/process-tree';
import { SSEClientTransport, StreamableHTTPClientTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import type { BackendEntry } from '../../../shared/config/schema';
import type { JsonRpcId, JsonRpcMessage } from '../wire/jsonrpc';
import { LineChannel, type InvalidLine } from '../wire/line-channel';
import { abort20260728, post20260728, type Relay20260728 } from './backend-2026-07-28';
import { backendEnvironment } from './environment';

export type { Relay20260728 } from './backend-2026-07-28';

export class BackendStartError extends Error {
  override name = 'BackendStartError';
}

export type BackendState = 'idle' | 'starting' | 'ready' | 'closed';

export interface BackendOptions {
  maxMessageBytes: number;
  /** One line of backend stderr or a lifecycle note; the CLI writes it to stderr. */
  log?: (line: string) => void;
}

type HttpTransport = StreamableHTTPClientTransport | SSEClientTransport;

const STDERR_TAIL_BYTES = 4096;
const KILL_GRACE_MS = 2000;
/** How long `initialized` waits for the backend's GET stream before the session goes on without it. */
const STANDALONE_WAIT_MS = 2000;

export class Backend {
  /** `related`: the request whose response stream carried the message (2026-07-28 per-request HTTP). */
  /** `text`: the line as read from a stdio backend (message capture keeps it). */
  onmessage?: (message: JsonRpcMessage, related?: JsonRpcId, text?: string) => void;
  /** Set by the HTTP listener for 2026-07-28 clients: their requests go upstream as their own POSTs. */
  rev20260728?: Relay20260728;
  /** The connection ended on its own (crash, exit, HTTP stream loss); `reason` says how, for errors to clients. */
  onclose?: (reason: string) => void;
  /**
   * An HTTP backend closed a request's response stream before answering and the transport will resume it
   * (SEP-1699): the gateway mirrors the drop to its clients, who resume theirs the same way.
   */
  onstreamdrop?: () => void;
  /** A line from a stdio backend that is not JSON-RPC (or is over the size cap). */
  oninvalid?: (problem: InvalidLine) => void;
  /** Every message this connection sends (message capture for the Messages view). */
  onsend?: (message: JsonRpcMessage, text?: string) => void;
  state: BackendState = 'idle';
  private child?: ChildProcess;
  private channel?: LineChannel;
  private http?: HttpTransport;
  private stderrTail = '';
  /** Held while `initialized` waits for the backend's GET stream: later sends queue behind it. */
  private gate?: Promise<void>;
  private readonly standalone = new StreamOpening();
  /** Streams the backend dropped that wait for their resumption (Streamable HTTP, SEP-1699). */
  private readonly droppedStreams = new Set<() => void>();
  private exitPromise?: Promise<void>;
  private stopping = false;
  private lastExit?: string;

  constructor(
    readonly entry: BackendEntry,
    private readonly options: BackendOptions,
  ) {}

  /** `command arg1 arg2` or the endpoint: how the backend is reached, for messages. */
  describe(): string {
    return this.entry.transport === 'stdio' ? [this.entry.command, ...this.entry.arguments].join(' ') : this.entry.endpoint;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  tail(): string {
    return this.stderrTail.trim();
  }

  async connect(): Promise<void> {
    this.stopping = false;
    this.state = 'starting';
    if (this.entry.transport === 'stdio') await this.spawnChild(this.entry);
    else await this.openHttp(this.entry);
    this.state = 'ready';
  }

  /**
   * Waits up to `ms` for a freshly spawned child to die: a command that exits at once (bad arguments, missing
   * module) is reported as a start failure with its stderr, instead of as a crash on the first request.
   */
  async settle(ms: number): Promise<void> {
    if (!this.child) return;
    let timer: NodeJS.Timeout | undefined;
    const died = await Promise.race([
      this.exited().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      }),
    ]);
    clearTimeout(timer);
    if (died) throw new BackendStartError(`could not start ${this.lastExit ?? `backend "${this.entry.name}" (${this.describe()})`}`);
  }

  /** Resolves when the child has exited (immediately for HTTP backends or when none runs). */
  exited(): Promise<void> {
    return this.exitPromise ?? Promise.resolve();
  }

  /**
   * `onStreamEnd` (Streamable HTTP only): called when the response stream of this request ends, answered
   * or not. A stream that ended without the answer (backend died mid-request, reconnection failed) would
   * otherwise leave the request waiting forever.
   */
  async send(message: JsonRpcMessage, onStreamEnd?: () => void): Promise<void> {
    if (this.state !== 'ready') throw new Error(`backend "${this.entry.name}" is not connected`);
    if (this.channel) {
      // Over stdio the write is synchronous: capture follows it rather than delaying it.
      const line = this.channel.send(message);
      this.onsend?.(message, line);
      return;
    }
    this.onsend?.(message);
    if (this.rev20260728 && this.entry.transport === 'http') {
      const headers = this.rev20260728.headersFor(message);
      if (headers) return post20260728(this, this.entry, message, headers, onStreamEnd, this.options.maxMessageBytes);
      if (abort20260728(this, message)) return;
    }
    if (this.gate) await this.gate;
    // The SDK transport types messages with its own (structurally equal) JSON-RPC types.
    const wire = message as unknown as JSONRPCMessage;
    if (this.http instanceof StreamableHTTPClientTransport && 'method' in message && message.method === 'notifications/initialized') {
      // The transport opens its GET stream after `initialized`, without waiting. Until the backend has it,
      // whatever the backend says outside a request (the log of a `logging/setLevel` sent right after) has
      // nowhere to go and is lost: so nothing more is sent before that stream is open.
      const http = this.http;
      const gate = (async () => {
        const opened = this.standalone.next();
        await http.send(wire);
        await opened;
      })();
      const held = gate.then(
        () => undefined,
        () => undefined,
      );
      this.gate = held;
      try {
        await gate;
      } finally {
        if (this.gate === held) this.gate = undefined;
      }
      return;
    }
    if (this.http instanceof StreamableHTTPClientTransport) await this.http.send(wire, onStreamEnd ? { onRequestStreamEnd: onStreamEnd } : undefined);
    else await this.http!.send(wire);
  }

  /** Resumes every dropped stream now rather than after the backend's `retry`. */
  resumeDroppedStreams(): void {
    for (const resume of [...this.droppedStreams]) resume();
  }

  /** HTTP transports need the negotiated version for the MCP-Protocol-Version header. */
  setProtocolVersion(version: string): void {
    if (this.http && 'setProtocolVersion' in this.http) this.http.setProtocolVersion(version);
  }

  async close(): Promise<void> {
    this.stopping = true;
    const wasReady = this.state !== 'closed';
    this.state = 'closed';
    if (this.child) {
      const child = this.child;
      // The whole group: a wrapper's server that ignores SIGTERM is killed too (process-tree.ts).
      await stopGroup(child, this.exited(), KILL_GRACE_MS);
      this.child = undefined;
    }
    this.channel?.close();
    this.channel = undefined;
    if (this.http) {
      const http = this.http;
      this.http = undefined;
      if (wasReady && http instanceof StreamableHTTPClientTransport) await http.terminateSession().catch(() => undefined);
      await http.close().catch(() => undefined);
    }
  }

  private async spawnChild(entry: Extract<BackendEntry, { transport: 'stdio' }>): Promise<void> {
    this.stderrTail = '';
    const child = spawn(entry.command, entry.arguments, {
      cwd: entry.cwd,
      env: backendEnvironment(entry.env), // the SDK's minimal default plus the config's `env` (backend-environment.ts)
      stdio: ['pipe', 'pipe', 'pipe'],
      // Own process group: stop() signals the group, so wrappers (npx, sh -c) do not orphan the server.
      detached: OWN_PROCESS_GROUP,
      windowsHide: true,
    });
    this.child = child;
    this.exitPromise = new Promise((resolve) => child.once('close', () => resolve()));
    child.stderr!.setEncoding('utf8');
    let partial = '';
    child.stderr!.on('data', (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_BYTES);
      partial += text;
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) this.options.log?.(`[backend ${entry.name}] ${line}`);
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (err: NodeJS.ErrnoException) => {
        const hint = err.code === 'ENOENT' ? ' (command not found: check "command" and PATH, or use an absolute path)' : '';
        reject(new BackendStartError(`could not start backend "${entry.name}": ${this.describe()}: ${err.message}${hint}`));
      });
    });
    const channel = new LineChannel(child.stdout!, child.stdin!, this.options.maxMessageBytes);
    channel.onmessage = (m, text) => this.onmessage?.(m, undefined, text);
    channel.oninvalid = (p) => {
      this.options.log?.(`[backend ${entry.name}] ignored a line that is not JSON-RPC (${p.kind})`);
      this.oninvalid?.(p);
    };
    this.channel = channel;
    child.once('exit', (code, signal) => {
      if (this.child !== child) return;
      this.channel?.close();
      this.channel = undefined;
      this.lastExit = this.exitReason(code, signal);
      if (this.stopping) return;
      this.state = 'closed';
      this.onclose?.(this.lastExit);
    });
  }

  /** Why the child ended, with the command and the tail of its stderr. */
  exitReason(code: number | null, signal: NodeJS.Signals | null): string {
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const tail = this.tail();
    return `backend "${this.entry.name}" (${this.describe()}) ${how}${tail ? `; stderr tail:\n${tail}` : ' (no stderr output)'}`;
  }

  private async openHttp(entry: Extract<BackendEntry, { transport: 'http' | 'sse' }>): Promise<void> {
    const url = new URL(entry.endpoint);
    const requestInit = entry.headers ? { headers: entry.headers } : undefined;
    const transport: HttpTransport =
      entry.transport === 'sse'
        ? new SSEClientTransport(url, { requestInit })
        : new StreamableHTTPClientTransport(url, {
            requestInit,
            // Sees the transport's standalone GET (the stream for unrelated server messages) being answered.
            fetch: (input, init) => {
              const response = fetch(input, init);
              if ((init?.method ?? 'GET') === 'GET')
                void response.then(
                  () => this.standalone.open(),
                  () => this.standalone.open(),
                );
              return response;
            },
            // Called when a stream ended without its answer and will be resumed after the backend's `retry`
            // (attempt 0), and again for each failed resumption (not a new drop: nothing to mirror).
            // The backend's `retry` is the fallback: a client that resumes its own stream sooner resumes this
            // one with it (resumeDroppedStreams), so the gateway adds no wait a direct client would not have.
            reconnectionScheduler: (reconnect, delay, attempt) => {
              if (attempt === 0) this.onstreamdrop?.();
              const resume = () => {
                clearTimeout(timer);
                this.droppedStreams.delete(resume);
                reconnect();
              };
              const timer = setTimeout(resume, delay);
              this.droppedStreams.add(resume);
              return () => {
                clearTimeout(timer);
                this.droppedStreams.delete(resume);
              };
            },
          });
    transport.onmessage = (m: unknown) => this.onmessage?.(m as JsonRpcMessage);
    transport.onerror = (err: Error) => this.options.log?.(`[backend ${entry.name}] ${err.message}`);
    transport.onclose = () => {
      if (this.http !== transport || this.stopping) return;
      this.state = 'closed';
      this.onclose?.(`backend "${entry.name}" (${entry.endpoint}) closed the connection`);
    };
    try {
      await transport.start();
    } catch (err) {
      throw new BackendStartError(`could not reach backend "${entry.name}" at ${entry.endpoint}: ${(err as Error).message}`);
    }
    this.http = transport;
  }
}

/** Resolves waiters when the standalone GET stream is answered, or after a bound (a backend may never open one). */
class StreamOpening {
  private waiters: (() => void)[] = [];

  next(boundMs = STANDALONE_WAIT_MS): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, boundMs);
      const waiters = this.waiters;
      function done() {
        clearTimeout(timer);
        const i = waiters.indexOf(done);
        if (i >= 0) waiters.splice(i, 1);
        resolve();
      }
      waiters.push(done);
    });
  }

  open(): void {
    for (const done of [...this.waiters]) done();
  }
}
