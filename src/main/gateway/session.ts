// One client session: a transparent JSON-RPC relay between one client and its own backend connection.
// Ids pass through unchanged in both directions (the backend connection belongs to this session alone), so
// progress tokens, cancellations and server→client requests need no rewriting. Intercepted methods run the
// request chain before forwarding and the response chain before returning; everything else is forwarded
// as the very object received (results stay raw: unknown fields are kept).
import { randomUUID } from 'node:crypto';
import type { GatewayConfig } from '../../shared/config/schema';
import { METHOD_INVOKE, METHOD_LIST, type Phase } from '../../shared/protocol/constants';
import type { InvocationContext } from '../../shared/protocol/schemas';
import type { ExecutionRecord, SessionRecord } from '../../shared/trace/execution';
import { ChainCancelledError, type ChainRuntime } from '../interceptors/chain';
import type { Backend } from './backend';
import { BackendLink } from './session-backend';
import { blockedResponse } from './blocked';
import { coerceToolSchemas, mirrorInitializeResult, progressTokenOf, restampServerInfo, sessionRecord, toExecutionRecord, type Exchange } from './exchange';
import type { Interception } from './intercept';
import {
  errorResponse,
  isErrorResponse,
  isNotification,
  isRequest,
  RpcCode,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './jsonrpc';
import { invalidLineResponse, type InvalidLine } from './line-channel';

/** How long a response waits after a progress notification of its own request (see onBackendResponse). */
const PROGRESS_SETTLE_MS = 10;
const ENVELOPE_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
const ENVELOPE_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';

/** Where the session writes to its client; `relatedRequestId` routes HTTP messages onto a request's stream. */
export interface ClientSink {
  send(message: JsonRpcMessage, relatedRequestId?: JsonRpcId): void;
}

export interface SessionHost {
  readonly config: GatewayConfig;
  readonly gatewayName: string;
  readonly interception: Interception;
  createBackend(): Backend;
  log(line: string): void;
  onSession(record: SessionRecord): void;
  onExecution(record: ExecutionRecord): void;
  /** `beforeClient`: the backend died before the client sent anything (a start failure in disguise). */
  onBackendEvent(event: { type: 'backend-crashed' | 'backend-reconnected'; sessionId: string; detail: string; beforeClient?: boolean }): void;
}

export interface SessionOptions {
  principal?: string;
  transport: 'stdio' | 'http';
  /** A backend already started by the listener (stdio spawns it at gateway start to report failures early). */
  backend?: Backend;
}

export class GatewaySession {
  readonly id = randomUUID();
  readonly principal: string | undefined;
  protocolVersion?: string;
  private readonly link: BackendLink;
  private initRequest?: JsonRpcRequest;
  private initialized = false;
  /** 2026-07-28 requests carry the client's identity in a per-request `_meta` envelope instead of initialize. */
  private envelope?: { clientInfo?: unknown };
  private runtime: ChainRuntime | null | undefined;
  /** The Interception the runtime was built from: a config hot swap replaces it and the runtime follows. */
  private runtimeSource?: Interception;
  private readonly fromClient = new Map<JsonRpcId, Exchange>();
  private readonly fromBackend = new Map<JsonRpcId, Exchange>();
  private closed = false;

  constructor(
    private readonly host: SessionHost,
    private readonly client: ClientSink,
    private readonly options: SessionOptions,
  ) {
    this.principal = options.principal;
    this.link = new BackendLink(host, this.id, {
      onmessage: (m) => this.onBackendMessage(m),
      onclose: (reason) => this.onBackendClosed(reason),
      oninvalid: (problem) => this.onBackendInvalid(problem),
    });
    if (options.backend) this.link.attach(options.backend, true);
  }

  /** Pending exchanges, for status and tests. */
  get pendingCount(): number {
    return this.fromClient.size + this.fromBackend.size;
  }

  get backendPid(): number | undefined {
    return this.link.pid;
  }

  handleClientMessage(message: JsonRpcMessage): void {
    if (this.closed) return;
    if (isRequest(message)) void this.onClientRequest(message);
    else if (isNotification(message)) this.onClientNotification(message);
    else void this.onClientResponse(message as JsonRpcResponse);
  }

  /** Sends a message to the client (the HTTP listener replays messages held until a stream opened). */
  deliver(message: JsonRpcMessage, relatedRequestId?: JsonRpcId): void {
    this.client.send(message, relatedRequestId);
  }

  /** A line or body that is not JSON-RPC: answer with an error and keep the connection. */
  handleInvalid(problem: InvalidLine): void {
    this.client.send(invalidLineResponse(problem));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const ex of this.fromClient.values()) ex.abort?.abort();
    for (const ex of [...this.fromClient.values(), ...this.fromBackend.values()]) ex.chain?.release();
    this.fromClient.clear();
    this.fromBackend.clear();
    await this.link.close();
  }

  // ---- client → backend ----

  private async onClientRequest(req: JsonRpcRequest): Promise<void> {
    if (req.method === 'initialize') return this.onInitialize(req);
    if (this.host.config.exposeInterceptorProtocol && (req.method === METHOD_LIST || req.method === METHOD_INVOKE)) {
      return this.answerInterceptorMethod(req);
    }
    if (!this.initialized && req.params?._meta) this.readEnvelope(req.params._meta as Record<string, unknown>);
    const ex = this.newExchange(req, 'client');
    this.fromClient.set(req.id, ex);
    let outgoing = req;
    if (this.needsChain(ex)) {
      const params = await this.runChain(ex, 'request', req.params ?? {});
      if (params === undefined) return; // blocked, cancelled or failed: already answered
      if (params !== req.params) outgoing = { ...req, params: params as Record<string, unknown> };
      ex.requestForwarded = params;
    }
    const ready = this.link.ready();
    if (ready) {
      // Hot path: no await between reading the client's line and writing the backend's.
      ex.forwarded = true;
      ready.send(outgoing, this.streamEndGuard(ex)).catch((err: Error) => this.onSendFailed(ready, ex, err));
      return;
    }
    try {
      const backend = await this.link.ensure(this.replayable());
      if (!this.fromClient.has(req.id)) return; // cancelled while connecting
      ex.forwarded = true;
      await backend.send(outgoing, this.streamEndGuard(ex)).catch((err: Error) => this.onSendFailed(backend, ex, err));
    } catch (err) {
      this.failClientExchange(ex, RpcCode.BackendUnavailable, (err as Error).message);
    }
  }

  /** For HTTP backends: the request's response stream ended and the exchange is still waiting → error. */
  private streamEndGuard(ex: Exchange): () => void {
    return () => {
      if (this.fromClient.get(ex.id) !== ex) return; // answered (or cancelled) already
      this.failClientExchange(ex, RpcCode.BackendUnavailable, `the backend's response stream for ${ex.method} ended without an answer (backend gone?); retry the request`);
    };
  }

  /**
   * An HTTP backend that refuses a request (down, restarted and forgot our session) has no process to
   * watch: the link is dropped so that the next request reconnects, and this one gets the error.
   */
  private onSendFailed(backend: Backend, ex: Exchange, err: Error): void {
    const reason = `backend "${backend.entry.name}" (${backend.describe()}) failed: ${err.message}`;
    this.link.drop(backend, reason);
    this.failClientExchange(ex, RpcCode.BackendUnavailable, `${reason}; retry the request to reconnect`);
  }

  private onClientNotification(note: JsonRpcNotification): void {
    if (note.method === 'notifications/cancelled') {
      const requestId = note.params?.requestId as JsonRpcId | undefined;
      const ex = requestId !== undefined ? this.fromClient.get(requestId) : undefined;
      if (ex) {
        this.fromClient.delete(ex.id);
        ex.abort?.abort(new Error('cancelled by the client'));
        ex.errorReturned = { code: RpcCode.InternalError, message: 'Request cancelled by the client' };
        this.record(ex);
        if (!ex.forwarded) return;
      }
    }
    this.link.sendIfUp(note);
  }

  private async onClientResponse(res: JsonRpcResponse): Promise<void> {
    const ex = res.id !== null ? this.fromBackend.get(res.id) : undefined;
    if (!ex) return; // answer to a request of a backend that has since crashed, or a duplicate
    this.fromBackend.delete(ex.id);
    let outgoing: JsonRpcResponse = res;
    if (isErrorResponse(res)) {
      ex.errorReturned = res.error;
    } else {
      ex.responseReceived = res.result;
      if (this.needsChain(ex)) {
        const result = await this.runChain(ex, 'response', res.result);
        if (result === undefined) return;
        if (result !== res.result) outgoing = { ...res, result: result as Record<string, unknown> };
      }
      ex.responseReturned = (outgoing as { result: unknown }).result;
    }
    this.link.sendIfUp(outgoing);
    this.record(ex);
  }

  private async onInitialize(req: JsonRpcRequest): Promise<void> {
    this.initRequest = req;
    this.fromClient.set(req.id, this.newExchange(req, 'client'));
    try {
      const backend = await this.link.ensure();
      await backend.send(req);
    } catch (err) {
      this.fromClient.delete(req.id);
      this.client.send(errorResponse(req.id, RpcCode.BackendUnavailable, (err as Error).message));
    }
  }

  private async answerInterceptorMethod(req: JsonRpcRequest): Promise<void> {
    const runtime = this.chainRuntime();
    const ex = this.newExchange(req, 'client');
    try {
      const result = req.method === METHOD_LIST ? await this.host.interception.list(runtime, req.params) : await this.host.interception.invoke(runtime, req.params);
      if ('code' in result && typeof result.code === 'number' && 'message' in result) {
        const failure = result as { code: number; message: string; data?: unknown };
        ex.errorReturned = failure;
        this.client.send(errorResponse(req.id, failure.code, failure.message, failure.data));
      } else {
        ex.responseReturned = result;
        this.client.send({ jsonrpc: '2.0', id: req.id, result }, req.id);
      }
    } catch (err) {
      ex.errorReturned = { code: RpcCode.InternalError, message: (err as Error).message };
      this.client.send(errorResponse(req.id, RpcCode.InternalError, (err as Error).message));
    }
    this.record(ex);
  }

  private readEnvelope(meta: Record<string, unknown>): void {
    const version = meta[ENVELOPE_PROTOCOL_VERSION];
    if (typeof version !== 'string') return;
    this.protocolVersion = version;
    this.envelope = { clientInfo: meta[ENVELOPE_CLIENT_INFO] };
  }

  // ---- backend → client ----

  private onBackendMessage(message: JsonRpcMessage): void {
    if (this.closed) return;
    if (isRequest(message)) void this.onBackendRequest(message);
    else if (isNotification(message)) this.onBackendNotification(message);
    else void this.onBackendResponse(message as JsonRpcResponse);
  }

  private async onBackendResponse(res: JsonRpcResponse): Promise<void> {
    if (res.id === null) return;
    const ex = this.fromClient.get(res.id);
    if (!ex) return; // cancelled or unknown: nobody waits for it
    this.fromClient.delete(res.id);
    if (ex.method === 'initialize') return this.completeInitialize(res);
    let outgoing: JsonRpcResponse = res;
    if (isErrorResponse(res)) {
      ex.errorReturned = res.error;
    } else {
      ex.responseReceived = res.result;
      let result: unknown = ex.method === 'tools/list' ? coerceToolSchemas(res.result) : res.result;
      if (ex.method === 'server/discover') result = await this.completeDiscover(res.result);
      else if (this.host.config.serverInfo) result = restampServerInfo(result as Record<string, unknown>, this.host.config.serverInfo);
      if (this.needsChain(ex)) {
        result = await this.runChain(ex, 'response', result);
        if (result === undefined) return;
      }
      if (result !== res.result) outgoing = { ...res, result: result as Record<string, unknown> };
      ex.responseReturned = result;
    }
    if (ex.lastProgressAt !== undefined && performance.now() - ex.lastProgressAt < PROGRESS_SETTLE_MS) {
      // SDK clients dispatch notifications a tick later than responses and drop progress that arrives after
      // its response: a result read in the same chunk as the last progress would lose that progress.
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_SETTLE_MS));
    }
    this.client.send(outgoing, res.id);
    this.record(ex);
  }

  private async completeInitialize(res: JsonRpcResponse): Promise<void> {
    if (isErrorResponse(res)) {
      this.client.send(res);
      return;
    }
    const version = res.result.protocolVersion;
    if (typeof version === 'string') {
      this.protocolVersion = version;
      this.link.setProtocolVersion(version);
    }
    this.initialized = true;
    this.runtime = undefined; // rebuilt with the negotiated version (compat, A17)
    const expose = this.host.config.exposeInterceptorProtocol;
    const events = expose ? await this.host.interception.supportedEvents(this.chainRuntime()) : null;
    this.client.send({ ...res, result: mirrorInitializeResult(res.result, this.host.config, events) });
    this.recordSession(this.initRequest?.params?.clientInfo);
  }

  /**
   * server/discover (2026-07-28 era, no initialize): mirrored like an initialize result, and the session is
   * recorded from the request envelope (clientInfo, protocol version).
   */
  private async completeDiscover(result: Record<string, unknown>): Promise<Record<string, unknown>> {
    const expose = this.host.config.exposeInterceptorProtocol;
    const events = expose ? await this.host.interception.supportedEvents(this.chainRuntime()) : null;
    if (!this.initialized) {
      this.initialized = true;
      this.recordSession(this.envelope?.clientInfo);
    }
    return mirrorInitializeResult(result, this.host.config, events);
  }

  private recordSession(clientInfo: unknown): void {
    this.host.onSession(
      sessionRecord({
        id: this.id,
        gateway: this.host.gatewayName,
        transport: this.options.transport,
        principal: this.principal,
        protocolVersion: this.protocolVersion,
        clientInfo,
      }),
    );
  }

  private async onBackendRequest(req: JsonRpcRequest): Promise<void> {
    const ex = this.newExchange(req, 'backend');
    this.fromBackend.set(req.id, ex);
    let outgoing = req;
    if (this.needsChain(ex)) {
      const params = await this.runChain(ex, 'request', req.params ?? {});
      if (params === undefined) return;
      if (params !== req.params) outgoing = { ...req, params: params as Record<string, unknown> };
      ex.requestForwarded = params;
    }
    ex.forwarded = true;
    this.client.send(outgoing, this.relatedClientRequest());
  }

  private onBackendNotification(note: JsonRpcNotification): void {
    let related: JsonRpcId | undefined;
    if (note.method === 'notifications/progress') {
      const token = note.params?.progressToken;
      for (const ex of this.fromClient.values()) {
        if (ex.progressToken !== token) continue;
        related = ex.id;
        ex.lastProgressAt = performance.now();
      }
    } else if (note.method === 'notifications/cancelled') {
      const requestId = note.params?.requestId as JsonRpcId | undefined;
      if (requestId !== undefined) {
        this.fromBackend.get(requestId)?.chain?.release();
        this.fromBackend.delete(requestId);
      }
    } else {
      related = this.relatedClientRequest();
    }
    this.client.send(note, related);
  }

  /** The newest client request still waiting: server→client traffic during a call belongs to its stream. */
  private relatedClientRequest(): JsonRpcId | undefined {
    let last: JsonRpcId | undefined;
    for (const ex of this.fromClient.values()) if (ex.forwarded) last = ex.id;
    return last;
  }

  // ---- chain ----

  /** The interception an exchange runs on: the one it pinned at its first phase, else the current one. */
  private interceptionOf(ex: Exchange): Interception {
    return ex.chain?.interception ?? this.host.interception;
  }

  /**
   * Whether a phase of this exchange has anything to run: decided synchronously so that the hot path of a
   * gateway without interceptors (or an event outside interceptedEvents) never awaits or leases.
   */
  private needsChain(ex: Exchange): boolean {
    if (!this.interceptionOf(ex).intercepts(ex.method)) return false;
    return ex.chain ? ex.chain.runtime !== null : this.chainRuntime() !== null;
  }

  private chainRuntime(): ChainRuntime | null {
    const source = this.host.interception;
    if (this.runtime === undefined || this.runtimeSource !== source) {
      this.runtime = source.runtimeFor(this.principal, this.protocolVersion);
      this.runtimeSource = source;
    }
    return this.runtime;
  }

  /**
   * Runs one phase. Returns the payload to forward, or undefined when the exchange is already answered
   * (blocked, cancelled, or the chain failed).
   */
  private async runChain(ex: Exchange, phase: Phase, payload: unknown): Promise<unknown> {
    // Pinned at the first phase, with a lease: after a hot reload this exchange finishes on the chain it started on.
    ex.chain ??= { interception: this.host.interception, runtime: this.chainRuntime(), release: this.host.interception.lease() };
    const { interception, runtime } = ex.chain;
    if (!runtime) return payload;
    const context: InvocationContext = {
      principal: this.principal ? { type: 'user', id: this.principal } : { type: 'anonymous' },
      traceId: ex.traceId,
      sessionId: this.id,
      timestamp: new Date().toISOString(),
    };
    if (phase === 'request') ex.abort = new AbortController();
    try {
      const { decision, finalPayload, trace } = await interception.run(runtime, ex.method, phase, payload, context, ex.abort?.signal);
      if (phase === 'request') ex.requestTrace = trace;
      else ex.responseTrace = trace;
      if (decision === 'allow') return trace.modified ? finalPayload : payload;
      ex.blockedBy = trace.blockedBy;
      this.answerBlocked(ex);
      return undefined;
    } catch (err) {
      if (err instanceof ChainCancelledError) return undefined; // the cancellation already recorded the exchange
      this.failExchange(ex, RpcCode.InternalError, `Interceptor chain failed for ${ex.method} (${phase}): ${(err as Error).message}`);
      return undefined;
    } finally {
      ex.abort = undefined;
    }
  }

  private answerBlocked(ex: Exchange): void {
    const block = ex.blockedBy!;
    if (ex.direction === 'client') {
      this.fromClient.delete(ex.id);
      const response = blockedResponse(ex.id, ex.method, block, this.host.config.blockedToolCall);
      if (isErrorResponse(response)) ex.errorReturned = response.error;
      else ex.responseReturned = response.result;
      this.client.send(response, ex.id);
    } else {
      this.fromBackend.delete(ex.id);
      // The backend asked; it gets the JSON-RPC error (A9: non-tools/call methods).
      const response = blockedResponse(ex.id, ex.method, block, 'error') as { error: Exchange['errorReturned'] };
      ex.errorReturned = response.error;
      this.link.sendIfUp({ jsonrpc: '2.0', id: ex.id, error: response.error! });
    }
    this.record(ex);
  }

  private failExchange(ex: Exchange, code: number, message: string): void {
    if (ex.direction === 'client') return this.failClientExchange(ex, code, message);
    this.fromBackend.delete(ex.id);
    ex.errorReturned = { code, message };
    this.link.sendIfUp(errorResponse(ex.id, code, message));
    this.record(ex);
  }

  private failClientExchange(ex: Exchange, code: number, message: string): void {
    if (!this.fromClient.delete(ex.id)) return;
    ex.errorReturned = { code, message };
    this.client.send(errorResponse(ex.id, code, message), ex.id);
    this.record(ex);
  }

  // ---- backend lifecycle ----

  /** The initialize to replay on a fresh backend after a crash (2025 era; the 2026 era has none). */
  private replayable(): JsonRpcRequest | undefined {
    return this.initialized ? this.initRequest : undefined;
  }

  private onBackendClosed(reason: string): void {
    if (this.closed) return;
    this.host.log(`${reason}\nThe gateway reconnects on the next request.`);
    this.host.onBackendEvent({ type: 'backend-crashed', sessionId: this.id, detail: reason, beforeClient: !this.initRequest && !this.initialized && this.fromClient.size === 0 });
    for (const ex of [...this.fromClient.values()]) {
      if (ex.forwarded || ex.method === 'initialize') this.failClientExchange(ex, RpcCode.BackendUnavailable, `${reason}; retry the request to reconnect`);
    }
    // Requests the dead backend made of the client can no longer be answered.
    for (const ex of this.fromBackend.values()) ex.chain?.release();
    this.fromBackend.clear();
  }

  private onBackendInvalid(problem: InvalidLine): void {
    if (problem.kind !== 'oversize') return;
    // The id of an oversized response is unknowable without parsing it: fail the request only if it is the only one waiting.
    const waiting = [...this.fromClient.values()].filter((e) => e.forwarded);
    const message = `The backend's message of ${problem.bytes} bytes exceeds the gateway's cap of ${problem.limit} bytes (maxMessageBytes)`;
    this.host.log(message);
    if (waiting.length === 1) this.failClientExchange(waiting[0]!, RpcCode.InternalError, message);
  }

  // ---- records ----

  private newExchange(req: JsonRpcRequest, direction: Exchange['direction']): Exchange {
    const ex: Exchange = {
      traceId: randomUUID(),
      id: req.id,
      method: req.method,
      direction,
      t0: performance.now(),
      startedAt: new Date().toISOString(),
      requestReceived: req.params,
    };
    const token = progressTokenOf(req.params);
    if (token !== undefined) ex.progressToken = token;
    return ex;
  }

  private record(ex: Exchange): void {
    ex.chain?.release();
    if (ex.method === 'initialize') return;
    this.host.onExecution(toExecutionRecord(ex, this.host.gatewayName, this.id));
  }
}
