// The stdio transport of an interceptor host (serve-stdio.ts): the SDK's Server gets every message, as
// over the SDK's own StdioServerTransport, except `interceptor/invoke` once `initialize` has negotiated a
// protocol version before 2026-07-28. Those are answered here, from the parsed line ([path-speed]): the
// SDK's per-request work (a zod pass over every message, an AbortController, a context, two promises)
// was most of a host's cost per invoke, and an invoker sends one invoke per interceptor per phase.
//
// Kept the same as the SDK's path: the result and error bodies (`{result, jsonrpc, id}`; a thrown code,
// or -32603, and its message and data), cancellation (`notifications/cancelled` aborts the handler's
// signal and the answer is never sent), stdin's end (calls in flight are aborted, not answered), the
// buffer cap. Answers produced while one chunk of input is read go out in one write: an invoker that
// sends several validators' invokes at once is woken once, not once per answer.
import type { Readable, Writable } from 'node:stream';
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { ErrorCode, FIRST_ENVELOPE_REVISION, METHOD_INVOKE } from '../../../shared/protocol/constants';
import type { InterceptorResult } from '../../../shared/protocol/schemas';
import { LineReader, NOT_JSON, parseLine, sdkMessage } from '../line-reader';

/** Runs one invoke from its raw params (InterceptorHost.invokeFromWire); throws or rejects like it. */
export type WireInvoker = (params: unknown, lineBytes: number, signal: () => AbortSignal) => InterceptorResult | Promise<InterceptorResult>;

type RequestId = string | number;

/** A fast-path invoke still running: its cancellation, made when the handler first looks at its signal. */
interface InFlight {
  controller?: AbortController;
  cancelled?: { reason: unknown };
}

export class HostStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private started = false;
  private closed = false;
  /** Set by the SDK's initialize handler: invokes are answered here only for versions without envelopes. */
  private fastPath = false;
  private readonly lines = new LineReader(
    (text, bytes) => this.handleLine(text, bytes),
    (error) => {
      this.onerror?.(error);
      void this.close();
    },
    () => this.closed,
  );
  /** Answers made while a chunk is read, written together when it is done (see the file comment). */
  private batch: string[] | undefined;
  private readonly inFlight = new Map<RequestId, InFlight>();

  constructor(
    private readonly invoke: WireInvoker,
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {}

  setProtocolVersion(version: string): void {
    this.fastPath = version < FIRST_ENVELOPE_REVISION;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('HostStdioTransport already started (Server.connect() starts it)');
    this.started = true;
    if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.onStdinClose);
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStdinError);
    this.stdin.on('end', this.onStdinClose);
    this.stdin.on('close', this.onStdinClose);
    this.stdout.on('error', this.onStdoutError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the stdio transport is closed'));
    return this.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStdinError);
    this.stdin.off('end', this.onStdinClose);
    this.stdin.off('close', this.onStdinClose);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.lines.clear();
    // As the SDK does for its requests: calls in flight are aborted and never answered.
    for (const call of this.inFlight.values()) cancel(call, new Error('the connection closed'));
    this.inFlight.clear();
    this.onclose?.();
  }

  private readonly onStdinError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onStdoutError = (error: Error): void => {
    if (this.closed) return;
    this.onerror?.(error);
    void this.close();
  };

  private readonly onStdinClose = (): void => {
    void this.close();
  };

  private readonly onData = (chunk: Buffer | string): void => {
    this.batch = [];
    try {
      this.lines.push(chunk);
    } finally {
      const batch = this.batch;
      this.batch = undefined;
      if (batch.length > 0 && !this.closed) this.stdout.write(batch.join(''));
    }
  };

  private handleLine(text: string, bytes: number): void {
    const value = parseLine(text, this.onerror);
    if (value === NOT_JSON) return;
    if (this.fastPath && this.takeInvoke(value, bytes)) return;
    if (this.takeCancellation(value)) return;
    const message = sdkMessage(value, parseJSONRPCMessage, this.onerror);
    if (message) this.onmessage?.(message);
  }

  /** Answers an `interceptor/invoke` request without an envelope; false leaves the message to the SDK. */
  private takeInvoke(value: unknown, lineBytes: number): boolean {
    const m = value as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown } | null;
    if (typeof m !== 'object' || m === null || m.method !== METHOD_INVOKE || m.jsonrpc !== '2.0') return false;
    const id = m.id;
    if (typeof id !== 'string' && !Number.isInteger(id)) return false;
    const params = m.params as { _meta?: unknown } | null | undefined;
    if (typeof params !== 'object' || params === null || params._meta !== undefined) return false;
    const call: InFlight = {};
    const signal = (): AbortSignal => {
      call.controller ??= new AbortController();
      if (call.cancelled && !call.controller.signal.aborted) call.controller.abort(call.cancelled.reason);
      return call.controller.signal;
    };
    let produced: InterceptorResult | Promise<InterceptorResult>;
    try {
      produced = this.invoke(params, lineBytes, signal);
    } catch (error) {
      this.answer(errorLine(id as RequestId, error));
      return true;
    }
    if (!(produced instanceof Promise)) {
      this.answer(resultLine(id as RequestId, produced));
      return true;
    }
    this.inFlight.set(id as RequestId, call);
    const settle = (line: string): void => {
      if (this.inFlight.get(id as RequestId) === call) this.inFlight.delete(id as RequestId);
      if (!call.cancelled && !this.closed) this.answer(line);
    };
    produced.then(
      (result) => settle(resultLine(id as RequestId, result)),
      (error: unknown) => settle(errorLine(id as RequestId, error)),
    );
    return true;
  }

  /** `notifications/cancelled` for a fast-path call: its handler is aborted and its answer never sent. */
  private takeCancellation(value: unknown): boolean {
    const m = value as { method?: unknown; params?: { requestId?: unknown; reason?: unknown } } | null;
    if (typeof m !== 'object' || m === null || m.method !== 'notifications/cancelled' || this.inFlight.size === 0) return false;
    const id = m.params?.requestId as RequestId;
    const call = this.inFlight.get(id);
    if (!call) return false;
    this.inFlight.delete(id);
    cancel(call, m.params?.reason);
    return true;
  }

  /** A fast-path answer: nobody awaits it, so no promise or drain listener (the stream buffers it). */
  private answer(line: string): void {
    if (this.batch) this.batch.push(line);
    else this.stdout.write(line);
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => {
        this.stdout.off('drain', onDrain);
        reject(error);
      };
      const onDrain = () => {
        this.stdout.off('error', onError);
        resolve();
      };
      if (this.stdout.write(text)) return resolve();
      this.stdout.once('error', onError);
      this.stdout.once('drain', onDrain);
    });
  }
}

function cancel(call: InFlight, reason: unknown): void {
  call.cancelled ??= { reason };
  call.controller?.abort(reason);
}

function resultLine(id: RequestId, result: InterceptorResult): string {
  return `${JSON.stringify({ result, jsonrpc: '2.0', id })}\n`;
}

/** As the SDK answers a handler's failure: its code (or -32603), its message, its data when it has one. */
function errorLine(id: RequestId, error: unknown): string {
  const e = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  const thrown = Number.isSafeInteger(e.code) ? (e.code as number) : ErrorCode.InternalError;
  // The SDK's pre-2026 codec sends -32002 (resource not found) as -32602.
  const code = thrown === -32002 ? ErrorCode.InvalidParams : thrown;
  const body = { code, message: typeof e.message === 'string' ? e.message : 'Internal error', ...(e.data !== undefined ? { data: e.data } : {}) };
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: body })}\n`;
}
