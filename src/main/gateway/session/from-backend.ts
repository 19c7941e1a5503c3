// The backend → client half of a session: the backend's answers to client requests (the initialize and
// server/discover results mirrored as the gateway presents itself, then the response chain), its own
// requests to the client (sampling, elicitation, roots: request chain, then forwarded), and its
// notifications, each routed onto the client stream it belongs to. The client → backend half stays in
// session.ts; both share the session's parts, passed in here. Messages nested too deeply take the
// branches at the end of this file (see deep-messages.ts).
import { MAX_PAYLOAD_DEPTH, MAX_RELAY_DEPTH } from '../../../shared/protocol/payload-depth';
import type { PhaseParts } from '../breakpoints/phase-with-breaks';
import type { SessionBreaks } from '../breakpoints/session-breaks';
import {
  backendRequestTooDeepMessage,
  cutMessage,
  droppedNotificationLine,
  relayable,
  uninspectableResultMessage,
  unrelayableAnswerMessage,
} from '../wire/deep-messages';
import { coerceToolSchemas, markProgress, mirrorInitializeResult, newestForwarded, newExchange, restampServerInfo, type Exchange } from './exchange';
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
import type { SessionTap } from '../record/message-capture';
import type { BackendLink } from './backend-link';
import type { SessionChain } from './chain';
import type { SessionExchanges } from './exchanges';
import type { Handshake } from './handshake';
import type { ClientSink, SessionHost } from './host';
import { runPhase } from './phase';

/** How long a response waits after a progress notification of its own request (see response()). */
const PROGRESS_SETTLE_MS = 10;

export interface FromBackendParts {
  host: SessionHost;
  handshake: Handshake;
  chain: SessionChain;
  breaks: SessionBreaks;
  exchanges: SessionExchanges;
  link: BackendLink;
  /** The session's client sink (tapped when messages are captured). */
  client: ClientSink;
  /** The same sink without the tap: a too-deep message is relayed through it, its capture cut (relayDeep). */
  relay: ClientSink;
  tap: SessionTap | undefined;
  phaseParts: PhaseParts;
}

export class BackendToClient {
  constructor(private readonly s: FromBackendParts) {}

  /** `related`: the request whose response stream carried the message (2026-07-28 HTTP backends). */
  /** `tooDeep`: the payload nests deeper than MAX_PAYLOAD_DEPTH (checked by BackendLink). */
  handle(message: JsonRpcMessage, related?: JsonRpcId, tooDeep = false): void {
    if (isRequest(message)) void (tooDeep ? this.refuseDeepRequest(message) : this.request(message));
    else if (isNotification(message)) this.notification(message, related, tooDeep);
    else void this.response(message as JsonRpcResponse, tooDeep);
  }

  private async response(res: JsonRpcResponse, tooDeep: boolean): Promise<void> {
    const { exchanges, host } = this.s;
    if (res.id === null) return;
    const ex = exchanges.fromClient.get(res.id);
    if (!ex) return; // cancelled or unknown: nobody waits for it
    exchanges.fromClient.delete(res.id);
    if (tooDeep) return this.deepResponse(ex, res);
    if (ex.method === 'initialize') return this.completeInitialize(res);
    let outgoing: JsonRpcResponse = res;
    if (isErrorResponse(res)) {
      ex.errorReturned = res.error;
    } else {
      ex.responseReceived = res.result;
      let result: unknown = ex.method === 'tools/list' ? coerceToolSchemas(res.result) : res.result;
      if (ex.method === 'server/discover') {
        this.s.handshake.completeDiscover();
        result = await this.mirror(res.result);
      } else if (host.config.serverInfo) result = restampServerInfo(result as Record<string, unknown>, host.config.serverInfo);
      if (this.s.chain.needed(ex) || this.s.breaks.armed(ex)) {
        result = await runPhase(this.s.phaseParts, ex, 'response', result);
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
    this.s.client.send(outgoing, res.id);
    exchanges.record(ex);
  }

  private async completeInitialize(res: JsonRpcResponse): Promise<void> {
    if (isErrorResponse(res)) {
      this.s.client.send(res);
      return;
    }
    const { handshake } = this.s;
    handshake.completeInitialize(res.result.protocolVersion);
    if (handshake.protocolVersion) this.s.link.setProtocolVersion(handshake.protocolVersion);
    this.s.chain.reset(); // rebuilt with the negotiated version (compat, A17)
    this.s.client.send({ ...res, result: await this.mirror(res.result) });
  }

  /** The backend's initialize or server/discover result as the client sees it (serverInfo, capabilities). */
  private async mirror(result: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { host } = this.s;
    const events = host.config.exposeInterceptorProtocol ? await host.interception.supportedEvents(this.s.chain.current()) : null;
    return mirrorInitializeResult(result, host.config, events);
  }

  private async request(req: JsonRpcRequest): Promise<void> {
    const { exchanges } = this.s;
    const ex = newExchange(req, 'backend');
    this.s.tap?.adopt(ex);
    exchanges.fromBackend.set(req.id, ex);
    let outgoing = req;
    if (this.s.chain.needed(ex)) {
      const params = await runPhase(this.s.phaseParts, ex, 'request', req.params ?? {});
      if (params === undefined) return;
      if (params !== req.params) outgoing = { ...req, params: params as Record<string, unknown> };
      ex.requestForwarded = params;
    }
    ex.forwarded = true;
    this.s.client.send(outgoing, newestForwarded(exchanges.fromClient));
  }

  /** `stream`: the request whose response stream carried it (2026-07-28 HTTP backends), else guessed below. */
  private notification(note: JsonRpcNotification, stream: JsonRpcId | undefined, tooDeep: boolean): void {
    const { exchanges } = this.s;
    let related: JsonRpcId | undefined;
    if (note.method === 'notifications/progress') {
      related = markProgress(exchanges.fromClient, note.params?.progressToken) ?? stream;
    } else if (note.method === 'notifications/cancelled') {
      const requestId = note.params?.requestId as JsonRpcId | undefined;
      if (requestId !== undefined) {
        exchanges.fromBackend.get(requestId)?.chain?.release();
        exchanges.fromBackend.delete(requestId);
      }
    } else {
      related = stream ?? newestForwarded(exchanges.fromClient);
    }
    if (!tooDeep) {
      this.s.client.send(note, related);
      return;
    }
    // Nothing inspects notifications: relayed unchanged while the gateway can serialize it (transparency).
    if (relayable(note)) return this.relayDeep(note, related);
    this.s.host.log(droppedNotificationLine('backend', exchanges.sessionId, note, MAX_RELAY_DEPTH));
  }

  /**
   * The backend's answer nests deeper than MAX_PAYLOAD_DEPTH: recorded once, cut at RECORD_DEPTH levels.
   * When nothing inspects it (no interceptor or breakpoint on its method) it is relayed unchanged as far as
   * the gateway can serialize it (transparency); else the client gets -32603 saying why: fail-closed, an
   * interceptor that cannot see a result must not let it through unseen.
   */
  private deepResponse(ex: Exchange, res: JsonRpcResponse): void {
    const cut = cutMessage(res);
    if ('result' in cut) ex.responseReceived = cut.result;
    else ex.errorReturned = cut.error;
    // initialize: its result is mirrored (serverInfo, capabilities), which a result this deep cannot be.
    const inspected = !isErrorResponse(res) && (ex.method === 'initialize' || this.s.chain.needed(ex) || this.s.breaks.armed(ex));
    if (!inspected && relayable(res)) {
      if ('result' in cut) ex.responseReturned = cut.result;
      this.relayDeep(res, ex.id);
    } else {
      const message = inspected ? uninspectableResultMessage(ex.method) : unrelayableAnswerMessage(ex.method);
      const data = { reason: 'result too deep', maxDepth: inspected ? MAX_PAYLOAD_DEPTH : MAX_RELAY_DEPTH };
      ex.errorReturned = { code: RpcCode.InternalError, message, data };
      this.s.client.send(errorResponse(ex.id, RpcCode.InternalError, message, data), ex.id);
    }
    this.s.exchanges.record(ex);
  }

  /** A backend request nested too deeply (as a client's is): -32602 to the backend, never forwarded, recorded cut. */
  private refuseDeepRequest(req: JsonRpcRequest): void {
    const ex = newExchange(cutMessage(req), 'backend');
    this.s.tap?.adopt(ex);
    this.s.exchanges.fromBackend.set(req.id, ex);
    this.s.exchanges.fail(ex, RpcCode.InvalidParams, backendRequestTooDeepMessage(req.method));
  }

  /** Sends a too-deep message on unchanged; the capture gets the cut copy (the recorder could not encode it whole). */
  private relayDeep(message: JsonRpcMessage, related: JsonRpcId | undefined): void {
    this.s.tap?.toClient(cutMessage(message));
    this.s.relay.send(message, related);
  }
}
