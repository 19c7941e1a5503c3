// InterceptorServerClient: the invoker side of one interceptor server over a real MCP transport.
// It connects (initialize with a deadline, capability check), discovers (draining pages, skipping
// malformed descriptors with a reason, cached per connection: A13, A15), invokes (deadline sent and
// enforced locally, cancellation, result checks), and reconnects with exponential backoff when the
// connection drops. The chain engine only sees the InterceptorServerHandle interface. One attempt to open
// a connection (transport, initialize, capability check) is open-connection.ts.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { METHOD_INVOKE } from '../../../shared/protocol/constants';
import type { InterceptorResult, InterceptorType, InvokeParams } from '../../../shared/protocol/schemas';
import { InvokeError, type DiscoveryResult, type InterceptorServerHandle, type InvokeOptions } from '../server-handle';
import { ConnectionConfigSchema, describeConnection, type ConnectionConfig } from './connection';
import { drainList } from './discovery';
import { toInvokeError } from './errors';
import { checkInvokeResult } from './result-check';
import type { HealthOptions } from './health';
import { terminateGroup } from '../../processes/process-tree';
import { backoffDelay, TextTail, type BackoffOptions, type ConnectionStatus } from './status';
import type { WireTap } from './wire-tap';
import { crashOf, describeExit, stderrEnding } from './process-exit';
import { invokeWireParams, withDeadline } from './invoke-wire';
import { openConnection, type Connection } from './open-connection';

export { invokeWireParams } from './invoke-wire';

export interface InterceptorServerClientOptions {
  /** Configured server name: with an interceptor name it forms the identity `server/name` (A7). */
  name: string;
  connection: ConnectionConfig;
  /** A8: when discovery of this server fails, the chain continues without it. */
  failOpen?: boolean;
  /** Deadline for the initialize handshake. Default 10 s. */
  initializeTimeoutMs?: number;
  /** Deadline for each `interceptors/list` page. Default 15 s. */
  listTimeoutMs?: number;
  /** Local deadline for invokes that carry no timeoutMs. Default 30 s. */
  defaultInvokeTimeoutMs?: number;
  /** Added to a sent timeoutMs for the local deadline, so the host's -32000 arrives first. Default 250 ms. */
  timeoutGraceMs?: number;
  backoff?: BackoffOptions;
  /** Retry in the background, with backoff, after a failed connect or a dropped connection. Default true. */
  autoReconnect?: boolean;
  /** Upper bound on `interceptors/list` pages per discovery. Default 100. */
  maxPages?: number;
  clientInfo?: { name: string; version: string };
  /** Each chunk a stdio server writes to stderr (it is also kept in `status.stderrTail`). */
  onStderr?: (chunk: string) => void;
  /** When a live connection counts as dead and its server is killed and restarted (see health.ts). */
  health?: HealthOptions;
  /** Sees every JSON-RPC message of the connection and every failed connect (a gateway's message capture). */
  wire?: WireTap;
}

type Listener<T> = (value: T) => void;

export class InterceptorServerClient implements InterceptorServerHandle {
  readonly name: string;
  readonly failOpen: boolean;
  private readonly connection: ConnectionConfig;
  private readonly opts: InterceptorServerClientOptions;
  private conn: Connection | undefined;
  private connecting: Promise<Connection> | undefined;
  private generation = 0;
  private closed = false;
  private everConnected = false;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Kills for unhealthiness since the last answered invoke: the restart backoff grows with them. */
  private restarts = 0;
  private restartBackoffUntil: number | undefined;
  private discovery: { generation: number; promise: Promise<DiscoveryResult>; result?: DiscoveryResult } | undefined;
  /**
   * Set from the moment a live connection is lost until the server is back (auto-reconnect only): calls
   * then do not wait for the restart. discover() and invoke() fail at once with "interceptor server
   * restarting: <reason>", so the chain routes the call by the server's failOpen (A8) instead of holding
   * it for a process start (or a restart backoff of seconds) while the server restarts in the background.
   */
  private down: { reason: string } | undefined;
  private types = new Map<string, InterceptorType>();
  private readonly stderr = new TextTail();
  private readonly statusListeners = new Set<Listener<ConnectionStatus>>();
  private readonly discoveryListeners = new Set<Listener<DiscoveryResult | undefined>>();
  private current: ConnectionStatus;

  constructor(options: InterceptorServerClientOptions) {
    if (options.connection.transport !== 'custom') {
      const parsed = ConnectionConfigSchema.safeParse(options.connection);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new Error(`Interceptor server '${options.name}': invalid connection: ${issue?.path.join('.') || 'connection'}: ${issue?.message}`);
      }
    }
    this.name = options.name;
    this.failOpen = options.failOpen ?? false;
    this.connection = options.connection;
    this.opts = options;
    this.current = { server: this.name, state: 'idle', target: describeConnection(this.connection), failures: 0 };
  }

  /** A snapshot of the connection status. */
  get status(): ConnectionStatus {
    return { ...this.current, stderrTail: this.stderr.value() };
  }

  /** Negotiated protocol version of the live connection (undefined while disconnected). */
  get protocolVersion(): string | undefined {
    return this.conn?.client.getNegotiatedProtocolVersion();
  }

  /** Subscribes to status changes; returns the unsubscribe function. */
  onStatus(listener: Listener<ConnectionStatus>): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Called when the cached discovery is invalidated (list_changed, reconnect) or refreshed. */
  onDiscoveryChanged(listener: Listener<DiscoveryResult | undefined>): () => void {
    this.discoveryListeners.add(listener);
    return () => this.discoveryListeners.delete(listener);
  }

  /** Connects now (otherwise the first discover/invoke does). Rejects with a clear error. */
  async connect(): Promise<void> {
    await this.ensureConnected();
  }

  async discover(options: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<DiscoveryResult> {
    if (!options.refresh && !this.conn && this.down) throw new Error(this.restartingMessage(this.down.reason));
    const conn = await this.ensureConnected();
    const cached = this.discovery;
    if (!options.refresh && cached && cached.generation === conn.generation) return cached.promise;
    const promise = this.fetchDiscovery(conn, undefined, options.signal).then((result) => {
      this.types = new Map(result.interceptors.map((d) => [d.name, d.type]));
      this.emitDiscovery(result);
      return result;
    });
    const entry: { generation: number; promise: Promise<DiscoveryResult>; result?: DiscoveryResult } = { generation: conn.generation, promise };
    this.discovery = entry;
    promise.then(
      (result) => {
        entry.result = result;
      },
      () => {
        if (this.discovery === entry) this.discovery = undefined;
      },
    );
    return promise;
  }

  /** The cached discovery of the live connection, when there is one (what discover() would answer). */
  discoveredNow(): DiscoveryResult | undefined {
    const cached = this.discovery;
    return this.conn && cached && cached.generation === this.conn.generation ? cached.result : undefined;
  }

  /** `interceptors/list` with an event filter, drained, not cached (the CLI's `list --event`). */
  async list(options: { event?: string; signal?: AbortSignal } = {}): Promise<DiscoveryResult> {
    const conn = await this.ensureConnected();
    return this.fetchDiscovery(conn, options.event, options.signal);
  }

  async invoke(params: InvokeParams, options: InvokeOptions = {}): Promise<InterceptorResult> {
    const requested = options.timeoutMs ?? params.timeoutMs;
    // The wire wants a non-negative integer; a chain's remaining budget can be fractional.
    const timeoutMs = requested === undefined ? undefined : Math.max(1, Math.ceil(requested));
    const ctx = { server: this.name, interceptor: params.name, timeoutMs, signal: options.signal };
    if (options.signal?.aborted) throw new InvokeError('cancelled', `invocation of '${params.name}' was cancelled before it started`);
    if (!this.conn && this.down) throw new InvokeError('transport', this.restartingMessage(this.down.reason));
    let conn: Connection;
    try {
      conn = await this.ensureConnected();
    } catch (err) {
      throw new InvokeError('transport', `server '${this.name}' is unavailable: ${(err as Error).message}`);
    }
    // The payload goes out exactly as given: null values and an own `__proto__` key are part of it, and a
    // mutator that hands it back unchanged must compare equal (so no recursive null-stripping here).
    const wire = invokeWireParams(params, timeoutMs);
    const localDeadline = (timeoutMs ?? this.opts.defaultInvokeTimeoutMs ?? 30_000) + (this.opts.timeoutGraceMs ?? 250);
    let raw: unknown;
    const started = Date.now();
    try {
      // stdio after a pre-2026 handshake: the transport's lane (stdio-transport.ts); otherwise the SDK.
      raw = conn.stdio?.invokeLane
        ? await conn.stdio.request(METHOD_INVOKE, wire, { timeout: localDeadline, signal: options.signal, background: options.background === true })
        : await conn.client.request({ method: METHOD_INVOKE, params: wire }, z.unknown(), {
            timeout: localDeadline,
            signal: options.signal,
          });
      this.noteAnswered(conn);
    } catch (err) {
      const mapped = crashOf(conn, params.name, this.name) ?? toInvokeError(err, ctx);
      this.noteFailure(conn, mapped, Date.now() - started, timeoutMs ?? localDeadline);
      // HTTP has no process to watch: a transport failure retires this connection so the next use reconnects.
      if (mapped.kind === 'transport') this.retire(conn, mapped.message);
      throw mapped;
    }
    return checkInvokeResult(raw, params, this.types.get(params.name), this.name);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.down = undefined;
    clearTimeout(this.retryTimer);
    const conn = this.conn;
    conn?.health?.stop();
    this.conn = undefined;
    // A connect still under way when the gateway stopped: its process is closed as soon as it is up
    // (startConnect sees `closed`); waiting for it here means close() leaves no process behind.
    const connecting = this.connecting;
    this.setStatus({ state: 'closed', pid: undefined, nextRetryAt: undefined });
    if (connecting)
      await connecting.then(
        () => undefined,
        () => undefined,
      );
    if (conn?.transport instanceof StreamableHTTPClientTransport) {
      // Free the server's session now instead of leaving it to its idle eviction (best effort, bounded).
      await withDeadline(conn.transport.terminateSession(), 2_000).catch(() => undefined);
    }
    await conn?.client.close().catch(() => undefined);
  }

  // ---- connection management ----

  private ensureConnected(): Promise<Connection> {
    if (this.closed) return Promise.reject(new Error(`interceptor server '${this.name}' client is closed`));
    if (this.conn) return Promise.resolve(this.conn);
    if (this.connecting) return this.connecting;
    const wait = (this.current.nextRetryAt ?? 0) - Date.now();
    if (wait > 0) {
      return Promise.reject(
        new Error(`not connected (retrying in ${wait}ms after ${this.current.failures} failed attempt(s)): ${this.current.lastError ?? 'unknown error'}`),
      );
    }
    return this.startConnect();
  }

  private startConnect(): Promise<Connection> {
    const attempt = this.open().then(
      async (conn) => {
        if (this.closed) {
          await conn.client.close().catch(() => undefined);
          throw new Error(`interceptor server '${this.name}' client is closed`);
        }
        const reconnected = this.everConnected;
        this.everConnected = true;
        this.conn = conn;
        this.down = undefined;
        this.setStatus({
          state: 'connected',
          lastError: undefined,
          failures: 0,
          nextRetryAt: undefined,
          connectedAt: Date.now(),
          protocolVersion: conn.client.getNegotiatedProtocolVersion(),
          serverInfo: conn.client.getServerVersion(),
          pid: conn.stdio?.pid,
        });
        if (reconnected) {
          // A15: a new connection means a new discovery; refresh eagerly so the UI and chain see it.
          this.discovery = undefined;
          this.emitDiscovery(undefined);
          this.discover().catch(() => undefined);
        }
        return conn;
      },
      (err: Error) => {
        this.opts.wire?.connectFailed(err.message);
        const failures = this.current.failures + 1;
        const nextRetryAt = Date.now() + backoffDelay(failures, this.opts.backoff);
        this.setStatus({ state: 'failed', lastError: err.message, failures, nextRetryAt, pid: undefined });
        // Keep trying in the background (bounded by the backoff) so the status recovers on its own
        // when a server comes up later; one-shot users (CLI, conformance) turn this off.
        this.scheduleReconnect();
        throw err;
      },
    );
    this.connecting = attempt;
    const clear = (): void => {
      if (this.connecting === attempt) this.connecting = undefined;
    };
    attempt.then(clear, clear);
    return attempt;
  }

  private async open(): Promise<Connection> {
    const generation = ++this.generation;
    this.setStatus({ state: this.everConnected ? 'reconnecting' : 'connecting' });
    this.stderr.clear();
    return openConnection({
      generation,
      connection: this.connection,
      target: this.current.target,
      stderr: this.stderr,
      settings: this.opts,
      onListChanged: () => this.onListChanged(generation),
      onClosed: () => this.onConnectionClosed(generation),
      onUnhealthy: (conn, reason) => this.restart(conn, reason),
    });
  }

  private onConnectionClosed(generation: number): void {
    const conn = this.conn;
    if (conn?.generation !== generation) return; // a failed attempt or an older connection
    conn.health?.stop();
    this.conn = undefined;
    this.discovery = undefined;
    if (this.closed) return;
    // After a kill for unhealthiness the reconnect waits out the restart backoff.
    const nextRetryAt = this.restartBackoffUntil ?? Date.now();
    this.restartBackoffUntil = undefined;
    const reason = conn.closedBecause ?? this.describeLoss(conn);
    conn.endedBecause = reason;
    if (this.opts.autoReconnect !== false) this.down = { reason };
    const lastError = this.current.lastError && conn.closedBecause ? this.current.lastError : reason;
    this.setStatus({ state: 'failed', lastError, pid: undefined, nextRetryAt });
    this.emitDiscovery(undefined);
    this.scheduleReconnect();
  }

  /** A lost connection in words: the process's exit code or signal and its last stderr lines (stdio). */
  private describeLoss(conn: Connection): string {
    const ending = stderrEnding(this.stderr.value());
    const how = conn.exit ? describeExit(conn.exit()) : `connection to ${this.current.target} closed`;
    return ending ? `${how}; its stderr ends with: ${ending}` : how;
  }

  private restartingMessage(reason: string): string {
    const retries = this.current.failures > 0 ? ` (${this.current.failures} restart attempt(s) failed, last: ${this.current.lastError})` : '';
    return `interceptor server '${this.name}' restarting: ${reason}${retries}`;
  }

  /** An answered invoke: the server works, so the restart backoff starts over. */
  private noteAnswered(conn: Connection): void {
    conn.health?.answered();
    this.restarts = 0;
  }

  /** A JSON-RPC error is an answer; no answer after the deadline is a missed deadline. */
  private noteFailure(conn: Connection, err: InvokeError, elapsedMs: number, deadlineMs: number): void {
    if (err.code !== undefined) this.noteAnswered(conn);
    // 10 ms of slack: a caller's deadline timer and this clock need not agree to the millisecond.
    else if ((err.kind === 'timeout' || err.kind === 'cancelled') && elapsedMs + 10 >= deadlineMs) conn.health?.missedDeadline();
  }

  /** Kills an unhealthy server (stdio) or drops the connection (HTTP); the reconnect backs off. */
  private restart(conn: Connection, reason: string): void {
    if (this.conn !== conn || this.closed) return;
    this.restarts++;
    this.restartBackoffUntil = Date.now() + backoffDelay(this.restarts, this.opts.backoff);
    const pid = conn.stdio?.pid;
    conn.closedBecause = reason;
    this.setStatus({ lastError: `server restarted: ${reason}` });
    if (typeof pid === 'number') terminateGroup(pid, this.opts.health?.killGraceMs ?? 2_000);
    void conn.client.close().catch(() => undefined); // onclose clears it and schedules the reconnect
  }

  private retire(conn: Connection, reason: string): void {
    if (this.conn !== conn) return;
    conn.closedBecause = reason;
    this.setStatus({ lastError: reason });
    void conn.client.close().catch(() => undefined); // onclose then clears and schedules the reconnect
  }

  private scheduleReconnect(): void {
    if (this.closed || this.opts.autoReconnect === false || this.retryTimer) return;
    const delay = Math.max(0, (this.current.nextRetryAt ?? 0) - Date.now());
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.closed || this.conn || this.connecting) return;
      this.startConnect().catch(() => undefined); // failure reschedules itself with backoff
    }, delay);
    this.retryTimer.unref();
  }

  private onListChanged(generation: number): void {
    if (this.conn?.generation !== generation) return;
    this.discovery = undefined;
    this.emitDiscovery(undefined);
  }

  private fetchDiscovery(conn: Connection, event: string | undefined, signal?: AbortSignal): Promise<DiscoveryResult> {
    return drainList(conn.client, {
      server: this.name,
      event,
      signal,
      pageTimeoutMs: this.opts.listTimeoutMs ?? 15_000,
      maxPages: this.opts.maxPages ?? 100,
    });
  }

  private setStatus(patch: Partial<ConnectionStatus>): void {
    this.current = { ...this.current, ...patch };
    const snapshot = this.status;
    for (const l of this.statusListeners) l(snapshot);
  }

  private emitDiscovery(result: DiscoveryResult | undefined): void {
    for (const l of this.discoveryListeners) l(result);
  }
}
