// A session's link to its backend: connecting on demand, reconnecting after a crash (replaying the client's
// initialize so the new backend knows the same client), and the few requests the gateway itself sends.
import { messageNestedDeeperThan } from '../../../shared/protocol/payload-depth';
import type { Backend } from '../backend/backend';
import { cutMessage } from '../wire/deep-messages';
import type { InvalidLine } from '../wire/line-channel';
import { errorResponse, isErrorResponse, RpcCode, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse } from '../wire/jsonrpc';
import type { SessionHost } from './host';
import type { SessionTap } from '../record/message-capture';

export interface BackendLinkEvents {
  /**
   * `related`: the client request whose response stream carried the message, when the backend knows it.
   * `tooDeep`: its payload nests deeper than MAX_PAYLOAD_DEPTH (deep-messages.ts): nothing may walk it.
   */
  onmessage(message: JsonRpcMessage, related: JsonRpcId | undefined, tooDeep: boolean): void;
  /** The backend died on its own; `reason` names the command/endpoint and the stderr tail. */
  onclose(reason: string): void;
  oninvalid(problem: InvalidLine): void;
  /** The backend dropped a response stream it will resume (HTTP, SEP-1699). */
  onstreamdrop?(): void;
}

export class BackendLink {
  private backend?: Backend;
  private up = false;
  private connecting?: Promise<Backend>;
  private readonly internal = new Map<JsonRpcId, (response: JsonRpcResponse) => void>();
  private seq = 0;

  constructor(
    private readonly host: SessionHost,
    private readonly sessionId: string,
    private readonly events: BackendLinkEvents,
    /** Message capture: what goes to and comes from the backend, and a connect that fails. */
    private readonly tap?: SessionTap,
  ) {}

  get isUp(): boolean {
    return this.up;
  }

  get pid(): number | undefined {
    return this.backend?.pid;
  }

  /** The backend when it is connected (the hot path skips ensure()'s promise). */
  ready(): Backend | undefined {
    return this.up ? this.backend : undefined;
  }

  /** Adopts a backend the listener already started. */
  attach(backend: Backend, up: boolean): void {
    this.backend = backend;
    this.up = up;
    const tap = this.tap;
    if (tap) backend.onsend = (m, text) => tap.toBackend(m, text);
    backend.onmessage = (m, related, text) => {
      // Checked once, here, before anything walks the message (the capture first): see deep-messages.ts.
      const tooDeep = messageNestedDeeperThan(m);
      if (tooDeep) tap?.fromBackend(cutMessage(m));
      else tap?.fromBackend(m, text);
      if (!this.takeInternal(m)) this.events.onmessage(m, related, tooDeep);
    };
    backend.onclose = (reason) => {
      if (backend !== this.backend) return;
      this.up = false;
      for (const resolve of this.internal.values()) resolve(errorResponse(null, RpcCode.BackendUnavailable, reason));
      this.internal.clear();
      this.events.onclose(reason);
    };
    backend.oninvalid = (problem) => this.events.oninvalid(problem);
    backend.onstreamdrop = () => this.events.onstreamdrop?.();
  }

  /** Sends if connected; silently drops otherwise (callers that must not lose a message use ensure()). */
  sendIfUp(message: JsonRpcMessage): void {
    if (this.up) this.backend!.send(message).catch(() => undefined);
  }

  setProtocolVersion(version: string): void {
    this.backend?.setProtocolVersion(version);
  }

  /** The client resumed a dropped stream: the backend's dropped streams are resumed now too. */
  resumeDroppedStreams(): void {
    this.backend?.resumeDroppedStreams();
  }

  /**
   * The connected backend: connects, or reconnects after a crash. `replay` is the client's initialize of a
   * session that was already initialized: the new backend gets it (with our own id) and `initialized`.
   */
  ensure(replay?: JsonRpcRequest): Promise<Backend> {
    if (this.backend && this.up) return Promise.resolve(this.backend);
    this.connecting ??= this.connect(replay).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Gives up on a backend that failed a send: the next ensure() connects afresh (and replays initialize). */
  drop(backend: Backend, reason: string): void {
    if (backend !== this.backend || !this.up) return;
    this.up = false;
    this.host.log(`${reason}\nThe gateway reconnects on the next request.`);
    this.host.onBackendEvent({ type: 'backend-crashed', sessionId: this.sessionId, detail: reason });
    void backend.close();
  }

  async close(): Promise<void> {
    this.up = false;
    await this.backend?.close();
  }

  private async connect(replay: JsonRpcRequest | undefined): Promise<Backend> {
    const backend = this.host.createBackend();
    this.attach(backend, false);
    await backend.connect();
    this.up = true;
    if (replay) {
      const id = `gateway-reinitialize-${++this.seq}`;
      const response = await new Promise<JsonRpcResponse>((resolve, reject) => {
        this.internal.set(id, resolve);
        backend.send({ ...replay, id }).catch(reject);
      });
      if (isErrorResponse(response)) throw new Error(`backend "${backend.entry.name}" refused to re-initialize: ${response.error.message}`);
      const version = response.result.protocolVersion;
      if (typeof version === 'string') backend.setProtocolVersion(version);
      await backend.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      this.host.log(`backend "${backend.entry.name}" reconnected for session ${this.sessionId}`);
      this.host.onBackendEvent({ type: 'backend-reconnected', sessionId: this.sessionId, detail: backend.describe() });
    }
    return backend;
  }

  /** Responses to the gateway's own requests never reach the session. */
  private takeInternal(message: JsonRpcMessage): boolean {
    if (!('id' in message) || 'method' in message || message.id === null || message.id === undefined) return false;
    const resolve = this.internal.get(message.id);
    if (!resolve) return false;
    this.internal.delete(message.id);
    resolve(message as JsonRpcResponse);
    return true;
  }
}
