// One client session: a transparent JSON-RPC relay between one client and its own backend connection.
// Ids pass through unchanged in both directions (the backend connection belongs to this session alone), so
// progress tokens, cancellations and server→client requests need no rewriting. Intercepted methods run the
// request chain before forwarding and the response chain before returning; everything else is forwarded
// as the very object received (results stay raw: unknown fields are kept). This file is the session's
// lifecycle and its client → backend half; the backend → client half is session-from-backend.ts.
import { randomUUID } from 'node:crypto';
import { METHOD_INVOKE, METHOD_LIST } from '../../../shared/protocol/constants';
import { MAX_PAYLOAD_DEPTH, messageNestedDeeperThan, tooDeepMessage } from '../../../shared/protocol/payload-depth';
import { asEraResult } from './blocked';
import type { PhaseParts } from '../breakpoints/phase-with-breaks';
import { SessionBreaks } from '../breakpoints/session-breaks';
import { cutMessage, droppedNotificationLine, refuseDeepClientAnswer } from '../wire/deep-messages';
import { newExchange, type Exchange } from './exchange';
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
} from '../wire/jsonrpc';
import { invalidLineResponse, type InvalidLine } from '../wire/line-channel';
import type { SessionTap } from '../record/message-capture';
import { BackendLink } from './backend-link';
import { SessionChain } from './chain';
import { BackendDeadlines } from './deadline';
import { SessionExchanges } from './exchanges';
import { BackendFaults } from './faults';
import { BackendToClient } from './from-backend';
import { Handshake } from './handshake';
import type { ClientSink, SessionHost, SessionOptions } from './host';
import { tapClientSink } from './messages';
import { runPhase } from './phase';

// The contract with the session's owner lives in session-host.ts; re-exported as the session's own API.
export type { ClientSink, SessionHost, SessionOptions } from './host';

/** Requests of one session waiting at once; beyond, a request is refused (the pending table stays bounded). */
const MAX_PENDING = 4096;

export class GatewaySession {
  readonly id = randomUUID();
  readonly principal: string | undefined;
  private readonly link: BackendLink;
  private readonly handshake: Handshake;
  private readonly chain: SessionChain;
  private readonly exchanges: SessionExchanges;
  private readonly deadlines: BackendDeadlines;
  private readonly faults: BackendFaults;
  private readonly breaks: SessionBreaks;
  private readonly phaseParts: PhaseParts;
  private readonly backendToClient: BackendToClient;
  private closed = false;
  /** Set while the gateway stops: new requests are refused, those in flight may finish. */
  private draining?: string;
  /** performance.now() of the last message from the client (idle sessions are reaped by the listener). */
  lastActivity = performance.now();
  private readonly client: ClientSink;
  private readonly untappedClient: ClientSink;
  /** Message capture (session-messages.ts); undefined when nobody records messages. */
  private readonly tap: SessionTap | undefined;

  constructor(
    private readonly host: SessionHost,
    client: ClientSink,
    private readonly options: SessionOptions,
  ) {
    this.tap = host.messageTap?.(this.id);
    this.client = tapClientSink(client, this.tap);
    this.untappedClient = client;
    this.principal = options.principal;
    this.handshake = new Handshake(host, { id: this.id, principal: this.principal, transport: options.transport });
    this.chain = new SessionChain({
      id: this.id,
      principal: this.principal,
      currentInterception: () => this.host.interception,
      protocolVersion: () => this.handshake.protocolVersion,
    });
    this.link = new BackendLink(
      host,
      this.id,
      {
        onmessage: (m, related, tooDeep) => {
          if (!this.closed) this.backendToClient.handle(m, related, tooDeep);
        },
        onclose: (reason) => {
          if (this.closed) return;
          const beforeClient = !this.handshake.initRequest && !this.handshake.initialized && this.exchanges.fromClient.size === 0;
          this.faults.closed(reason, beforeClient);
        },
        oninvalid: (problem) => this.faults.invalid(problem),
        // The backend closed a stream mid-call: so does the gateway, so that its client sees what a direct one would.
        onstreamdrop: () => {
          for (const ex of this.exchanges.fromClient.values()) if (ex.forwarded) this.client.closeStream?.(ex.id);
        },
      },
      this.tap,
    );
    this.exchanges = new SessionExchanges(
      host,
      this.id,
      this.client,
      (m) => this.link.sendIfUp(m),
      () => this.handshake.protocolVersion,
    );
    this.faults = new BackendFaults(host, this.id, this.exchanges, this.link);
    this.deadlines = new BackendDeadlines(
      () => this.host.config,
      this.exchanges.fromClient,
      (ex, ms) => this.faults.timeout(ex, ms),
      this.exchanges.fromBackend,
    );
    this.breaks = new SessionBreaks(host, this.id, this.principal, (m, related) => this.client.send(m, related));
    this.phaseParts = {
      breaks: this.breaks,
      chain: this.chain,
      exchanges: this.exchanges,
      send: (m, related) => this.client.send(m, related),
      protocolVersion: () => this.handshake.protocolVersion,
    };
    this.backendToClient = new BackendToClient({
      host,
      handshake: this.handshake,
      chain: this.chain,
      breaks: this.breaks,
      exchanges: this.exchanges,
      link: this.link,
      client: this.client,
      relay: this.untappedClient,
      tap: this.tap,
      phaseParts: this.phaseParts,
    });
    if (options.backend) this.link.attach(options.backend, true);
  }

  /** The negotiated protocol version (initialize result, or the 2026-07-28 envelope). */
  get protocolVersion(): string | undefined {
    return this.handshake.protocolVersion;
  }

  /** Pending exchanges, for status and tests. */
  get pendingCount(): number {
    return this.exchanges.size;
  }

  /** Client requests not yet answered (what a graceful stop waits for). */
  get inFlight(): number {
    return this.exchanges.fromClient.size;
  }

  get backendPid(): number | undefined {
    return this.link.pid;
  }

  /**
   * The client reconnected with Last-Event-ID (SEP-1699): streams the backend dropped are resumed at once,
   * as a direct client's would be now, instead of after the `retry` the backend announced.
   */
  clientResumed(): void {
    this.link.resumeDroppedStreams();
  }

  /** `text`: the message's line as read (stdio), which message capture keeps as it is. */
  handleClientMessage(message: JsonRpcMessage, text?: string): void {
    // Checked before anything walks the payload (the tap, the chain, the recorder): see payload-depth.ts.
    if (messageNestedDeeperThan(message)) return isRequest(message) ? this.refuseTooDeep(message) : this.dropTooDeep(message);
    this.tap?.fromClient(message, text);
    if (this.closed) {
      // A request to a session that is closing (its gateway stops): answered and recorded, never dropped.
      if (isRequest(message)) this.refuse(newExchange(message, 'client'));
      return;
    }
    this.lastActivity = performance.now();
    if (isRequest(message)) void this.onClientRequest(message);
    else if (isNotification(message)) this.onClientNotification(message);
    else void this.onClientResponse(message as JsonRpcResponse);
  }

  /** Sends a message to the client (the HTTP listener replays messages held until a stream opened). */
  deliver(message: JsonRpcMessage, relatedRequestId?: JsonRpcId): void {
    // Held messages passed the tap when the session sent them the first time.
    this.untappedClient.send(message, relatedRequestId);
  }

  /** A line or body that is not JSON-RPC: answer with an error and keep the connection. */
  handleInvalid(problem: InvalidLine): void {
    this.client.send(invalidLineResponse(problem));
  }

  /** The gateway stops: refuse new requests (with `reason`), let those in flight finish. */
  drain(reason: string): void {
    this.draining = reason;
  }

  /**
   * Ends the session and its backend. Requests still open are recorded (once) as errors; `answer`: the
   * client is still connected (a gateway stopping) and gets that error as its answer.
   */
  async close(options: { reason?: string; answer?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.deadlines.stop();
    this.breaks.close();
    this.exchanges.endAll(options.reason ?? 'the client session closed before the backend answered', options.answer === true);
    await this.link.close();
  }

  // ---- client → backend ----

  private async onClientRequest(req: JsonRpcRequest): Promise<void> {
    if (req.method === 'initialize') return this.onInitialize(req);
    if (this.host.config.exposeInterceptorProtocol && (req.method === METHOD_LIST || req.method === METHOD_INVOKE)) {
      return this.answerInterceptorMethod(req);
    }
    this.handshake.noteRequest(req);
    const ex = newExchange(req, 'client');
    this.tap?.adopt(ex);
    if (this.draining !== undefined || this.exchanges.fromClient.size >= MAX_PENDING || this.exchanges.fromClient.has(req.id)) {
      return this.refuse(ex);
    }
    this.exchanges.fromClient.set(req.id, ex);
    let outgoing = req;
    if (this.chain.needed(ex) || this.breaks.armed(ex)) {
      const params = await runPhase(this.phaseParts, ex, 'request', req.params ?? {});
      if (params === undefined) return; // blocked, cancelled or failed: already answered
      if (params !== req.params) outgoing = { ...req, params: params as Record<string, unknown> };
      ex.requestForwarded = params;
    }
    if (this.host.propagateTrace) {
      outgoing = { ...outgoing, params: this.host.propagateTrace(ex.traceId, req.params, outgoing.params) };
      ex.requestForwarded = outgoing.params;
    }
    const ready = this.link.ready();
    if (ready) {
      // Hot path: no await between reading the client's line and writing the backend's.
      ex.forwarded = true;
      this.deadlines.watch(ex);
      ready.send(outgoing, this.faults.streamEndGuard(ex)).catch((err: Error) => this.faults.sendFailed(ready, ex, err));
      return;
    }
    try {
      const backend = await this.link.ensure(this.handshake.replayable());
      if (this.exchanges.fromClient.get(req.id) !== ex) return; // cancelled while connecting, or the session closed
      ex.forwarded = true;
      this.deadlines.watch(ex);
      await backend.send(outgoing, this.faults.streamEndGuard(ex)).catch((err: Error) => this.faults.sendFailed(backend, ex, err));
    } catch (err) {
      this.host.onBackendUnreachable?.((err as Error).message);
      this.tap?.connectFailed(this.host.config.backend, (err as Error).message);
      this.exchanges.failFromClient(ex, RpcCode.BackendUnavailable, (err as Error).message);
    }
  }

  /** A request the session cannot take (the gateway stops, too many waiting, an id already in flight): answered and recorded. */
  private refuse(ex: Exchange): void {
    const message =
      this.draining ??
      (this.closed ? 'The session is closed; initialize a new one' : undefined) ??
      (this.exchanges.fromClient.has(ex.id)
        ? `A request with id ${JSON.stringify(ex.id)} is already in flight in this session; use a new id`
        : `Too many requests in flight in this session (${MAX_PENDING}); wait for answers before sending more`);
    const code =
      this.draining !== undefined || this.closed
        ? RpcCode.BackendUnavailable
        : this.exchanges.fromClient.has(ex.id)
          ? RpcCode.InvalidRequest
          : RpcCode.TooManyPending;
    ex.errorReturned = { code, message };
    this.client.send(errorResponse(ex.id, code, message), ex.id);
    this.exchanges.record(ex);
  }

  /**
   * A request whose params nest deeper than MAX_PAYLOAD_DEPTH: -32602 at once, never forwarded, and
   * recorded (initialize aside, as always) with its params cut at RECORD_DEPTH levels, which the recorder
   * and the message capture can encode.
   */
  private refuseTooDeep(req: JsonRpcRequest): void {
    const cut = cutMessage(req);
    this.tap?.fromClient(cut);
    this.lastActivity = performance.now();
    const ex = newExchange(cut, 'client');
    this.tap?.adopt(ex);
    const message = tooDeepMessage(`The ${req.method} request cannot be forwarded: its params are`);
    const data = { reason: 'params too deep', maxDepth: MAX_PAYLOAD_DEPTH };
    ex.errorReturned = { code: RpcCode.InvalidParams, message, data };
    this.client.send(errorResponse(req.id, RpcCode.InvalidParams, message, data), req.id);
    this.exchanges.record(ex);
  }

  /**
   * A notification or an answer (to a backend request) from the client, nested too deeply: never
   * forwarded, captured cut. A notification has nobody to answer: dropped with a log line. An answer is
   * replaced by an error to the backend that asked, and recorded (deep-messages.ts).
   */
  private dropTooDeep(message: JsonRpcNotification | JsonRpcResponse): void {
    this.tap?.fromClient(cutMessage(message));
    this.lastActivity = performance.now();
    if (isNotification(message)) this.host.log(droppedNotificationLine('client', this.id, message, MAX_PAYLOAD_DEPTH));
    else refuseDeepClientAnswer(this.exchanges, message as JsonRpcResponse);
  }

  private onClientNotification(note: JsonRpcNotification): void {
    if (note.method === 'notifications/cancelled') {
      const requestId = note.params?.requestId as JsonRpcId | undefined;
      const ex = requestId !== undefined ? this.exchanges.fromClient.get(requestId) : undefined;
      if (ex) {
        this.exchanges.fromClient.delete(ex.id);
        ex.abort?.abort(new Error('cancelled by the client'));
        // A pause this cancel ended has its record by now (the registry resolves it on the abort).
        ex.errorReturned = { code: RpcCode.InternalError, message: cancelledMessage(ex) };
        this.exchanges.record(ex);
        if (!ex.forwarded) return;
      }
    }
    this.link.sendIfUp(note);
  }

  private async onClientResponse(res: JsonRpcResponse): Promise<void> {
    const ex = res.id !== null ? this.exchanges.fromBackend.get(res.id) : undefined;
    if (!ex) return; // answer to a request of a backend that has since crashed, or a duplicate
    this.exchanges.fromBackend.delete(ex.id);
    let outgoing: JsonRpcResponse = res;
    if (isErrorResponse(res)) {
      ex.errorReturned = res.error;
    } else {
      ex.responseReceived = res.result;
      if (this.chain.needed(ex)) {
        const result = await runPhase(this.phaseParts, ex, 'response', res.result);
        if (result === undefined) return;
        if (result !== res.result) outgoing = { ...res, result: result as Record<string, unknown> };
      }
      ex.responseReturned = (outgoing as { result: unknown }).result;
    }
    this.link.sendIfUp(outgoing);
    this.exchanges.record(ex);
  }

  private async onInitialize(req: JsonRpcRequest): Promise<void> {
    this.handshake.initRequest = req;
    const ex = newExchange(req, 'client');
    this.tap?.adopt(ex);
    this.exchanges.fromClient.set(req.id, ex);
    try {
      const backend = await this.link.ensure();
      if (this.exchanges.fromClient.get(req.id) !== ex) return;
      ex.forwarded = true;
      this.deadlines.watch(ex);
      await backend.send(req);
    } catch (err) {
      this.host.onBackendUnreachable?.((err as Error).message);
      this.tap?.connectFailed(this.host.config.backend, (err as Error).message);
      this.exchanges.failBackendConnect(req.id, RpcCode.BackendUnavailable, (err as Error).message);
    }
  }

  private async answerInterceptorMethod(req: JsonRpcRequest): Promise<void> {
    const ex = newExchange(req, 'client');
    this.tap?.adopt(ex);
    const response = asEraResult(await this.host.interception.answer(this.chain.current(), req), this.handshake.protocolVersion);
    if (isErrorResponse(response)) ex.errorReturned = response.error;
    else ex.responseReturned = response.result;
    this.client.send(response, req.id);
    this.exchanges.record(ex);
  }
}

/**
 * What a client that cancelled saw: no answer. When it cancelled while paused at a breakpoint (an SDK
 * client does so when its own request timeout passes), the record says so, so that a pause that "ended"
 * with a client error reads as what it was.
 */
function cancelledMessage(ex: Exchange): string {
  const pause = ex.breaks?.pauses.at(-1);
  if (pause?.decision !== 'cancelled' || pause.by !== 'client') return 'Request cancelled by the client';
  return `Request cancelled by the client while paused at breakpoint "${pause.breakpoint}" for ${pause.waitedMs} ms with no decision (a client cancels when its own request timeout passes): it got no answer${ex.forwarded ? '' : ', and the backend was not called'}`;
}
