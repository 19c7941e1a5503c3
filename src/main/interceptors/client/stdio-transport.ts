// The invoker's transport to a stdio interceptor server: it spawns the server as the SDK's
// StdioClientTransport does (cross-spawn, same environment, same stop sequence), and serves the SDK's Client for the
// handshake, discovery, pings and notifications. Beside that it has a lane for `interceptor/invoke`
// ([path-speed]): once initialize has negotiated a protocol version before 2026-07-28 (no envelopes), an
// invoke is written and its answer matched here, past the SDK's per-request work (two zod passes over
// every answer, a codec, an AbortSignal); the result comes back as the SDK would hand it over, and
// errors, deadlines and cancellations fail the same way (ProtocolError, SdkError), so errors.ts maps
// both paths alike. Lane ids are strings ("i1", "i2", …): the SDK numbers its own requests, so the two
// can never collide.
//
// Writes made in one microtask run go out in one write: a chain that invokes several validators at once
// wakes the server once, and the host answers them in one write too (host/stdio-transport.ts). A
// background request (a detached sink, which nobody waits on) is held until the next write that someone
// waits on takes it along, or BACKGROUND_HOLD_MS at most: on this kind of machine each write that wakes the
// other process costs tens of microseconds on both sides, and a chain's sinks would otherwise add their own
// writes and answers (two per tools/call with a sink on both phases) to the ones the call waits for.
import type { ChildProcess } from 'node:child_process';
import spawn from 'cross-spawn';
import { childExited, OWN_PROCESS_GROUP, stopGroup } from '../../processes/process-tree';
import { PassThrough } from 'node:stream';
import { ProtocolError, SdkError, SdkErrorCode, parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { FIRST_ENVELOPE_REVISION } from '../../../shared/protocol/constants';
import { LineReader, NOT_JSON, parseLine, sdkMessage } from '../line-reader';
import type { ProcessExit } from './process-exit';
import type { WireTap } from './wire-tap';

export interface StdioServerParams {
  command: string;
  args?: string[];
  /** Merged over the SDK's safe default environment (PATH, HOME, …). */
  env?: Record<string, string>;
  cwd?: string;
}

/** How long close() waits for the server to exit after its stdin ends, then after SIGTERM (as the SDK). */
const EXIT_WAIT_MS = 2_000;

/** The longest delay a Node timer takes as given (2^31 - 1 ms); a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

/** How long a background request may wait for a foreground write to leave with (see the file comment). */
export const BACKGROUND_HOLD_MS = 10;

interface LaneCall {
  resolve(result: unknown): void;
  reject(error: unknown): void;
  /** performance.now() past which the call fails as timed out (see armDeadline). */
  deadline: number;
  timeout: number;
  signal?: AbortSignal;
}

export class InterceptorStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  /** The server's stderr, there before start() so that no early output is lost. */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  private exited: ProcessExit | undefined;
  private laneOpen = false;
  private nextLaneId = 1;
  private readonly lane = new Map<string, LaneCall>();
  /** One timer for every lane call's deadline: armed for the earliest one, never more than one (see request()). */
  private deadlineTimer: NodeJS.Timeout | undefined;
  private deadlineAt = Infinity;
  /** Signals of the calls in flight: one abort listener each, removed with its last call (see watch()). */
  private readonly watched = new Map<AbortSignal, { calls: number; onAbort: () => void }>();
  private pendingText: string | undefined;
  private flushQueued = false;
  private backgroundTimer: NodeJS.Timeout | undefined;
  private tap: WireTap | undefined;
  private closing: Promise<void> | undefined;
  private readonly lines = new LineReader(
    (text) => this.handleLine(text),
    (error) => {
      this.onerror?.(error);
      void this.close();
    },
  );

  constructor(private readonly params: StdioServerParams) {}

  /** Every message of this connection, both ways, lane or not (the gateway's message capture). */
  useTap(tap: WireTap): void {
    tap.reset?.();
    this.tap = tap;
  }

  get pid(): number | undefined {
    return this.child?.pid ?? undefined;
  }

  /** How the server process ended, once it has. */
  exit(): ProcessExit | undefined {
    return this.exited;
  }

  /** True once invokes go by the lane (see the file comment). */
  get invokeLane(): boolean {
    return this.laneOpen && this.child !== undefined;
  }

  setProtocolVersion(version: string): void {
    this.laneOpen = version < FIRST_ENVELOPE_REVISION;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('InterceptorStdioTransport already started (Client.connect() starts it)');
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args ?? [], {
        env: { ...getDefaultEnvironment(), ...this.params.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        // Own process group: close() signals the group, so a wrapper does not orphan the server (process-tree.ts).
        detached: OWN_PROCESS_GROUP,
        windowsHide: true,
        cwd: this.params.cwd,
      });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.on('exit', (code, signal) => {
        this.exited = { pid: child.pid, code, signal };
      });
      child.on('close', () => {
        this.child = undefined;
        this.failLane(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.lines.push(chunk));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stderr?.pipe(this.stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (!this.child?.stdin) return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
    const line = JSON.stringify(message);
    this.tap?.message('out', message, line);
    this.enqueue(`${line}\n`);
    return Promise.resolve();
  }

  /**
   * One request by the lane: the raw result, or a rejection as the SDK's Client.request gives (a
   * ProtocolError for an error answer; an SdkError for the deadline, a closed connection, or an abort).
   */
  request(method: string, params: Record<string, unknown>, options: { timeout: number; signal?: AbortSignal; background?: boolean }): Promise<unknown> {
    if (!this.child?.stdin) return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(new SdkError(SdkErrorCode.RequestTimeout, String(signal.reason)));
    const id = `i${this.nextLaneId++}`;
    const message = { method, params, jsonrpc: '2.0' as const, id };
    return new Promise((resolve, reject) => {
      // No timer and no listener of its own ([path-speed]: a setTimeout, an abort listener and their removal
      // cost ~3 µs each, a dozen times per tools/call with the samples): the lane's one timer watches every
      // deadline, and a signal gets one listener while calls with it are in flight (watch()).
      const deadline = performance.now() + options.timeout;
      const call: LaneCall = { resolve, reject, deadline, timeout: options.timeout };
      if (signal) {
        call.signal = signal;
        this.watch(signal);
      }
      this.lane.set(id, call);
      if (deadline < this.deadlineAt) this.armDeadline(deadline);
      // Serialized once: the line written is the text the capture keeps.
      const line = JSON.stringify(message);
      this.tap?.message('out', message, line);
      this.enqueue(`${line}\n`, options.background === true);
    });
  }

  /**
   * The lane's timer fires at `at` (a performance.now() time). It stays armed when calls settle: the next calls'
   * deadlines are later (same timeout, later start), so a busy lane arms it about once per timeout, and when it
   * fires it fails what is due and re-arms for the earliest call still waiting, if any. Unref'd: the server's
   * pipes keep the process alive while calls are in flight, and their close fails every call (failLane).
   */
  private armDeadline(at: number): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineAt = at;
    // Node's timers count from the loop's cached time, which may be behind performance.now(): a timer that
    // fires a little early finds nothing due and re-arms for the rest. A delay past Node's limit (~24.8 days)
    // would fire at once, and re-arm at once, forever: it is held to the limit and re-armed from there.
    this.deadlineTimer = setTimeout(this.expire, Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(at - performance.now()))));
    this.deadlineTimer.unref();
  }

  private readonly expire = (): void => {
    this.deadlineTimer = undefined;
    this.deadlineAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const [id, call] of [...this.lane]) {
      if (call.deadline <= now) this.cancel(id, new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: call.timeout }));
      else if (call.deadline < next) next = call.deadline;
    }
    if (next < Infinity) this.armDeadline(next);
  };

  /**
   * Calls in flight together mostly share a signal (a chain's), so it gets one listener for all of them. It
   * is removed with the signal's last call: a signal that never aborts (a chain without a deadline) outlives
   * every connection, and a listener left on it would keep each closed transport.
   */
  private watch(signal: AbortSignal): void {
    const watched = this.watched.get(signal);
    if (watched) {
      watched.calls++;
      return;
    }
    const onAbort = (): void => {
      for (const [id, call] of [...this.lane]) if (call.signal === signal) this.cancel(id, signal.reason);
    };
    this.watched.set(signal, { calls: 1, onAbort });
    signal.addEventListener('abort', onAbort, { once: true });
  }

  /** The call leaves the lane (answered, given up or failed): its signal loses a call. */
  private take(id: string): LaneCall | undefined {
    const call = this.lane.get(id);
    if (!call) return undefined;
    this.lane.delete(id);
    const signal = call.signal;
    const watched = signal && this.watched.get(signal);
    if (watched && --watched.calls === 0) {
      this.watched.delete(signal);
      signal.removeEventListener('abort', watched.onAbort);
    }
    return call;
  }

  /** A call given up (deadline or abort): the server is told and stops the work, and never answers (as the SDK). */
  private cancel(id: string, reason: unknown): void {
    const call = this.take(id);
    if (!call) return;
    if (this.child?.stdin) {
      const cancelled = { jsonrpc: '2.0' as const, method: 'notifications/cancelled', params: { requestId: id, reason: String(reason) } };
      const line = JSON.stringify(cancelled);
      this.tap?.message('out', cancelled, line);
      this.enqueue(`${line}\n`);
    }
    call.reject(reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason)));
  }

  /**
   * Ends the server: stdin closed, then SIGTERM, then SIGKILL. Every caller waits for the same end: the SDK
   * closes a transport whose initialize failed without waiting (void), and a second close() returning at once
   * let its caller go on, or its process exit, before a server that ignores stdin was killed (an orphan).
   */
  close(): Promise<void> {
    this.closing ??= this.endChild();
    return this.closing;
  }

  private async endChild(): Promise<void> {
    this.flush(); // held background requests still leave (a sink's invoke is not dropped by a stop)
    const child = this.child;
    this.lines.clear();
    if (!child) return;
    this.child = undefined;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    try {
      child.stdin?.end();
    } catch {
      // already gone
    }
    await Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, EXIT_WAIT_MS).unref())]);
    // Still running with its stdin closed, or something it started is (a wrapper's server): SIGTERM to the
    // group, then SIGKILL to whatever of it is left (process-tree.ts; nothing is sent when all of it has ended).
    await stopGroup(child, childExited(child), EXIT_WAIT_MS);
  }

  /** Writes made in one microtask run leave together; background ones with the next (see the file comment). */
  private enqueue(text: string, background = false): void {
    this.pendingText = this.pendingText === undefined ? text : this.pendingText + text;
    if (!background && !this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(this.flush);
    } else if (background && !this.flushQueued && !this.backgroundTimer) {
      this.backgroundTimer = setTimeout(this.flush, BACKGROUND_HOLD_MS);
    }
  }

  /** Writes what is pending (once per microtask run or hold; a second call finds nothing left). */
  private readonly flush = (): void => {
    const text = this.pendingText;
    this.pendingText = undefined;
    this.flushQueued = false;
    if (this.backgroundTimer) {
      clearTimeout(this.backgroundTimer);
      this.backgroundTimer = undefined;
    }
    if (text !== undefined) this.child?.stdin?.write(text);
  };

  private handleLine(text: string): void {
    const value = parseLine(text, this.onerror);
    if (value === NOT_JSON) return;
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof id === 'string' && this.lane.has(id) && this.takeAnswer(id, value as Record<string, unknown>, text)) return;
    const message = sdkMessage(value, parseJSONRPCMessage, this.onerror);
    if (!message) return;
    this.tap?.message('in', message, text);
    this.onmessage?.(message);
  }

  /** A lane call's answer: its result, or its error as the SDK's ProtocolError. */
  private takeAnswer(id: string, answer: Record<string, unknown>, text: string): boolean {
    const error = answer.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
    const isError = typeof error === 'object' && error !== null && Number.isInteger(error.code) && typeof error.message === 'string';
    if (!isError && !('result' in answer)) return false;
    const call = this.take(id)!;
    this.tap?.message('in', answer, text);
    if (isError) call.reject(ProtocolError.fromError(error.code as number, error.message as string, error.data));
    else call.resolve(answer.result);
    return true;
  }

  private failLane(error: SdkError): void {
    const calls = [...this.lane.keys()].map((id) => this.take(id)!);
    this.stopDeadline();
    for (const call of calls) call.reject(error);
  }

  private stopDeadline(): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = undefined;
    this.deadlineAt = Infinity;
  }
}
