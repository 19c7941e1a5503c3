// A gateway: one config, one listener, its sessions, its interceptor servers, its recorder. Reusable in
// process (the app's GatewayManager runs several): start/stop, status, counters, an event stream, and a
// config hot swap. Nothing here writes to stdout: logs go to the `log` option (stderr in the CLI).
import { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import type { GatewayConfig, InterceptorServerEntry } from '../../shared/config/schema';
import { recordingEnabled } from '../../shared/config/parse';
import { listenExposure } from '../../shared/config/listen-exposure';
import type { ExecutionOutcome, ExecutionRecord, Recorder, SessionRecord } from '../../shared/trace/execution';
import type { InterceptorServerHandle } from '../interceptors/server-handle';
import type { ExecutionTelemetry } from '../telemetry/otel-telemetry';
import { configErrors, type FailureSimulator } from '../interceptors/chain';
import { Backend } from './backend/backend';
import { BackendHealth } from './backend/health';
import { GatewayBreakpoints } from './breakpoints/breakpoint-set';
import { ControlServer } from './breakpoints/control-server';
import { configSnapshot } from './record/config-snapshot';
import { Interception } from './intercept';
import { HttpListener } from './listen/http';
import { startStdioListener, type StdioListener } from './listen/stdio';
import type { GatewaySession, SessionHost } from './session/session';
import { MessageCapture, type SessionTap } from './record/message-capture';

export type GatewayState = 'stopped' | 'starting' | 'running' | 'stopping' | 'failed';

export interface GatewayCounters {
  calls: number;
  blocked: number;
  mutated: number;
  errors: number;
  /** Median duration of the last (up to) 1000 executions, ms. */
  p50Ms: number | null;
  sessions: number;
  backendCrashes: number;
}

export interface GatewayStatus {
  name: string;
  state: GatewayState;
  /** Why the gateway failed to start or stopped by itself. */
  error?: string;
  listen: { transport: 'stdio' } | { transport: 'http'; url?: string };
  backend: string;
  interceptorServers: string[];
  counters: GatewayCounters;
}

export interface GatewayEvents {
  execution: [ExecutionRecord];
  session: [SessionRecord];
  log: [string];
  state: [GatewayState];
  /** The config was swapped by reload(): `restarted` when a backend/listener change forced a restart. */
  reloaded: [{ at: string; restarted: boolean }];
  backend: [{ type: 'backend-crashed' | 'backend-reconnected'; sessionId: string; detail: string }];
  /** The stdio client closed its end: a headless gateway exits. */
  'client-gone': [];
  /** backendHealth changed (connected, or a failed connect / lost backend). */
  'backend-health': [];
}

export interface GatewayOptions {
  /** Shown in records and the UI; defaults to serverInfo.name, then the backend's name. */
  name?: string;
  /** Where executions go; null or absent records nothing (events are still emitted). */
  recorder?: Recorder | null;
  log?: (line: string) => void;
  /** Streams of the stdio listener (default: this process's stdin and stdout). */
  stdio?: { input: Readable; output: Writable };
  /** Substitute how interceptor-server handles are built (in-memory hosts in tests and the playground). */
  createHandle?: (entry: InterceptorServerEntry) => InterceptorServerHandle & { close?: () => Promise<void> };
  /** Playground failure simulation, passed to every chain run (see Interception). */
  simulate?: FailureSimulator;
  /** OpenTelemetry export (--otlp-endpoint): gets every session and execution, beside the recorder. */
  telemetry?: ExecutionTelemetry;
}

const LATENCY_WINDOW = 1000;

export class Gateway extends EventEmitter<GatewayEvents> implements SessionHost {
  config: GatewayConfig;
  interception: Interception;
  readonly gatewayName: string;
  readonly backendHealth = new BackendHealth(() => this.emit('backend-health'));
  /** Breakpoints (the config's, hot-reloaded with it, plus live ones) and the calls paused right now. */
  readonly breakpoints = new GatewayBreakpoints(() => this.config.breakpoints ?? []);
  private state: GatewayState = 'stopped';
  private error?: string;
  private stdio?: StdioListener;
  private http?: HttpListener;
  /** The control endpoint (config `control`): consoles in other processes attach to it. */
  private control?: ControlServer;
  /** Interceptions replaced by a hot reload that still serve in-flight exchanges. */
  private readonly retired = new Set<Interception>();
  /** Records waiting for sinks still running (SessionExchanges.record): a stop waits for them. */
  private readonly beforeStop = new Set<Promise<unknown>>();
  private readonly latencies: number[] = [];
  private latencyCursor = 0;
  private readonly counts = { calls: 0, blocked: 0, mutated: 0, errors: 0, sessions: 0, backendCrashes: 0 };
  /** Message capture for the Messages view, made for the recorder that keeps messages (see captureFor). */
  private messageCapture?: MessageCapture;
  /** start/stop/reload run one at a time, in call order: fast Start→Stop→Start→Stop ends as the last call says. */
  private lifecycle: Promise<unknown> = Promise.resolve();

  constructor(
    config: GatewayConfig,
    private readonly options: GatewayOptions = {},
  ) {
    super();
    this.config = config;
    this.gatewayName = options.name ?? config.serverInfo?.name ?? config.backend.name;
    this.interception = this.buildInterception(config);
  }

  /** The recorder, unless the config turns recording off (`recording: false`); events are emitted either way. */
  get recorder(): Recorder | null {
    return recordingEnabled(this.config) ? (this.options.recorder ?? null) : null;
  }

  start(): Promise<void> {
    return this.serial(() => this.startNow());
  }

  /**
   * Stops gracefully: no new sessions or requests, requests in flight may finish for up to `drainMs`
   * (default: the config's drainTimeoutMs), the rest get a JSON-RPC error; every one is recorded, the
   * recorder flushed; then the listener, every session's backend and every interceptor server stop.
   */
  stop(options: { drainMs?: number } = {}): Promise<void> {
    return this.serial(() => this.stopNow(options.drainMs));
  }

  reload(config: GatewayConfig): Promise<{ restarted: boolean }> {
    return this.serial(() => this.reloadNow(config));
  }

  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.lifecycle.then(run, run);
    this.lifecycle = next.catch(() => undefined);
    return next;
  }

  private async startNow(): Promise<void> {
    if (this.state === 'running' || this.state === 'starting') return;
    this.setState('starting');
    this.error = undefined;
    this.breakpoints.suspended = false;
    try {
      const listen = this.config.listen;
      if (listen.transport === 'stdio') {
        const io = this.options.stdio ?? { input: process.stdin, output: process.stdout };
        this.stdio = await startStdioListener(this, io, listen.principal, this.config.maxMessageBytes, () => this.emit('client-gone'));
      } else {
        // A non-loopback bind without tokens is refused unless the config opts in (listen-exposure.ts).
        const exposure = listenExposure(listen);
        if (exposure.kind === 'refused') throw new Error(exposure.message);
        if (exposure.kind === 'open') this.log(exposure.warning);
        this.http = new HttpListener(this, listen, this.config.maxMessageBytes);
        const url = await this.http.start();
        this.log(`gateway "${this.gatewayName}" listening on ${url}`);
      }
      await this.startControl();
      this.setState('running');
      this.recorder?.recordGateway?.(this.gatewayName, configSnapshot(this.config));
      // Connect the static interceptor servers now (in the background): the first request should not pay
      // for spawning them, and a broken one shows up in the log at once.
      for (const handle of this.interception.servers) {
        handle.discover().then(
          (r) => {
            const listed = r.interceptors.map((descriptor, listIndex) => ({ server: handle.name, serverIndex: 0, listIndex, descriptor }));
            for (const e of configErrors(listed, this.config.overrides)) this.log(`config error: ${e.message}`);
          },
          (err: unknown) => this.log(`interceptor server "${handle.name}": ${(err as Error).message}`),
        );
      }
    } catch (err) {
      this.error = (err as Error).message;
      await this.closeListeners();
      this.setState('failed');
      throw err;
    }
  }

  private async stopNow(drainMs = this.config.drainTimeoutMs): Promise<void> {
    if (this.state === 'stopped' || this.state === 'stopping') return;
    this.setState('stopping');
    // Paused calls would hold the drain: each resolves now by its breakpoint's timeout policy, and
    // nothing pauses again until the next start.
    this.breakpoints.suspended = true;
    this.breakpoints.pauses.releaseAll();
    await this.drain(drainMs);
    await this.control?.close();
    this.control = undefined;
    await this.closeListeners(`The gateway stopped before the backend answered (it waited ${drainMs} ms for requests in flight); retry once it runs again`);
    // Records waiting for sinks still running are made (RECORD_WAITS_FOR_SINKS_MS at most) before their servers close.
    await this.recordsSettled();
    await Promise.all([this.interception, ...this.retired].map((i) => i.close()));
    this.retired.clear();
    await this.recorder?.flush().catch(() => undefined);
    this.interception = this.buildInterception(this.config);
    this.setState('stopped');
  }

  /**
   * Swaps the config. Interception settings (servers, overrides, events, timeouts, blocking) apply to the
   * next exchange of every live session; a changed backend or listener needs a restart, done here.
   */
  private async reloadNow(config: GatewayConfig): Promise<{ restarted: boolean }> {
    const needsRestart =
      JSON.stringify(config.backend) !== JSON.stringify(this.config.backend) ||
      JSON.stringify(config.listen) !== JSON.stringify(this.config.listen) ||
      config.maxMessageBytes !== this.config.maxMessageBytes;
    const wasRunning = this.state === 'running';
    const controlChanged = JSON.stringify(config.control) !== JSON.stringify(this.config.control);
    if (needsRestart && wasRunning) await this.stopNow();
    const old = this.interception;
    this.config = config;
    this.interception = this.buildInterception(config);
    if (!needsRestart) {
      // In-flight exchanges hold leases on the old interception and finish on it; it closes after them.
      this.retired.add(old);
      void old.retire().finally(() => this.retired.delete(old));
    }
    if (!needsRestart && wasRunning && controlChanged) {
      await this.control?.close();
      this.control = undefined;
      await this.startControl();
    }
    if (needsRestart && wasRunning) await this.startNow();
    else if (this.state === 'running') this.recorder?.recordGateway?.(this.gatewayName, configSnapshot(this.config));
    const restarted = needsRestart && wasRunning;
    this.log(`gateway "${this.gatewayName}" reloaded its config (${restarted ? 'restarted: backend or listener changed' : 'hot: sessions kept'})`);
    this.emit('reloaded', { at: new Date().toISOString(), restarted });
    return { restarted };
  }

  status(): GatewayStatus {
    const listen = this.config.listen;
    const status: GatewayStatus = {
      name: this.gatewayName,
      state: this.state,
      listen: listen.transport === 'stdio' ? { transport: 'stdio' } : { transport: 'http', ...(this.http?.url ? { url: this.http.url } : {}) },
      backend: `${this.config.backend.name} (${this.config.backend.transport === 'stdio' ? [this.config.backend.command, ...this.config.backend.arguments].join(' ') : this.config.backend.endpoint})`,
      interceptorServers: this.config.staticInterceptors.map((e) => e.name),
      counters: this.counters(),
    };
    if (this.error) status.error = this.error;
    return status;
  }

  counters(): GatewayCounters {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const p50Ms = sorted.length > 0 ? sorted[Math.floor((sorted.length - 1) / 2)]! : null;
    return { ...this.counts, p50Ms };
  }

  /** The control endpoint's URL while it listens. */
  get controlUrl(): string | undefined {
    return this.control?.url;
  }

  private async startControl(): Promise<void> {
    const control = this.config.control;
    if (!control) return;
    this.control = new ControlServer(this.gatewayName, this.breakpoints, control);
    this.log(`gateway "${this.gatewayName}" control endpoint on ${await this.control.start()}`);
  }

  /** The stdio session (undefined for HTTP listeners): tests and the CLI read its backend pid. */
  get stdioSession() {
    return this.stdio?.session;
  }

  get url(): string | undefined {
    return this.http?.url;
  }

  // ---- SessionHost ----

  createBackend(): Backend {
    return new Backend(this.config.backend, { maxMessageBytes: this.config.maxMessageBytes, log: (line) => this.log(line) });
  }

  log(line: string): void {
    this.options.log?.(line);
    this.emit('log', line);
  }

  onSession(record: SessionRecord): void {
    this.backendHealth.connected(); // the backend answered this session's initialize
    this.counts.sessions++;
    this.recorder?.recordSession(record);
    this.options.telemetry?.recordSession(record);
    this.emit('session', record);
  }

  /** A tap per session while messages are captured: recording on, `captureMessages` on, a recorder that keeps them. */
  messageTap(sessionId: string): SessionTap | undefined {
    return this.capture()?.session(sessionId);
  }

  /** Read per session and per interceptor connection, so a config reload that turns capture off applies to what starts next. */
  private capture(): MessageCapture | undefined {
    const recorder = this.recorder;
    if (!recorder?.recordMessage || this.config.captureMessages === false) return undefined;
    this.messageCapture ??= new MessageCapture(this.gatewayName, (m) => this.recorder?.recordMessage?.(m));
    return this.messageCapture;
  }

  /**
   * Resolves once every call answered so far is handed to the recorder: a record waits for sinks still running
   * (they are off the call's path), at most RECORD_WAITS_FOR_SINKS_MS after the call's end.
   */
  async recordsSettled(): Promise<void> {
    while (this.beforeStop.size > 0) await Promise.all([...this.beforeStop]);
  }

  awaitBeforeStop(work: Promise<unknown>): void {
    const tracked = work.catch(() => undefined).finally(() => this.beforeStop.delete(tracked));
    this.beforeStop.add(tracked);
  }

  onExecution(record: ExecutionRecord): void {
    this.count(record.outcome, record.durationMs);
    this.recorder?.recordExecution(record);
    this.options.telemetry?.recordExecution(record);
    if (this.listenerCount('execution') > 0) this.emit('execution', record);
  }

  /** Whether anyone takes execution records: when not, sessions only count (no record is built). */
  wantsRecords(): boolean {
    return this.recorder !== null || this.options.telemetry !== undefined || this.listenerCount('execution') > 0;
  }

  /** With telemetry on, the backend's `_meta.traceparent` names this exchange's backend-call span. */
  get propagateTrace(): SessionHost['propagateTrace'] {
    const telemetry = this.options.telemetry;
    return telemetry ? (id, received, forwarded) => telemetry.propagate(id, received, forwarded) : undefined;
  }

  count(outcome: ExecutionOutcome, durationMs: number): void {
    this.counts.calls++;
    if (outcome === 'blocked') this.counts.blocked++;
    else if (outcome === 'mutated') this.counts.mutated++;
    else if (outcome === 'error') this.counts.errors++;
    if (this.latencies.length < LATENCY_WINDOW) this.latencies.push(durationMs);
    else this.latencies[this.latencyCursor++ % LATENCY_WINDOW] = durationMs;
  }

  onBackendUnreachable(error: string): void {
    this.backendHealth.failed(error);
  }

  onBackendEvent(event: { type: 'backend-crashed' | 'backend-reconnected'; sessionId: string; detail: string; beforeClient?: boolean }): void {
    if (event.type === 'backend-crashed') this.backendHealth.failed(event.detail);
    else this.backendHealth.connected();
    if (event.type === 'backend-crashed') this.counts.backendCrashes++;
    // A stdio gateway's backend that dies before its client said anything did not really start (it outlived
    // the start check, e.g. a slow machine): fail the gateway with the reason rather than idle with a dead backend.
    if (event.type === 'backend-crashed' && event.beforeClient && this.config.listen.transport === 'stdio' && this.state === 'running') {
      this.error = `could not start ${event.detail}`;
      this.setState('failed');
    }
    this.emit('backend', event);
  }

  // ---- internals ----

  private buildInterception(config: GatewayConfig): Interception {
    return new Interception(config, {
      log: (line) => this.log(line),
      ...(this.options.createHandle ? { createHandle: this.options.createHandle } : {}),
      ...(this.options.simulate ? { simulate: this.options.simulate } : {}),
      wire: (server) => this.capture()?.interceptor(server),
    });
  }

  /** Every live client session (stdio, HTTP, 2026-07-28 hubs). */
  private sessions(): GatewaySession[] {
    return [...(this.stdio ? [this.stdio.session] : []), ...(this.http?.liveSessions() ?? [])];
  }

  /** Refuses new work and waits (up to `drainMs`) until no client request is in flight. */
  private async drain(drainMs: number): Promise<void> {
    this.http?.stopAccepting();
    const sessions = this.sessions();
    for (const s of sessions) s.drain('The gateway is stopping and takes no new requests; retry once it runs again');
    const deadline = performance.now() + drainMs;
    // Polled: answers arrive from many sessions and backends; 10 ms is nothing next to a stop.
    while (sessions.some((s) => s.inFlight > 0) && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(10, Math.max(1, deadline - performance.now()))));
    }
  }

  private async closeListeners(reason?: string): Promise<void> {
    const stdio = this.stdio;
    const http = this.http;
    this.stdio = undefined;
    this.http = undefined;
    await Promise.all([stdio?.close(reason), http?.close(reason)]);
  }

  private setState(state: GatewayState): void {
    this.state = state;
    this.emit('state', state);
  }
}
