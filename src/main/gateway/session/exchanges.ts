// A session's open exchanges, both directions, and how one ends when the gateway answers it itself
// (blocked, failed, the backend gone): the answer goes back to whoever asked, the exchange leaves the
// pending map, and it is recorded once. Ids are the peers' own, so a map per direction keeps them apart.
import { asEraResult, blockedResponse } from './blocked';
import { outcomeOf, toExecutionRecord, type Exchange } from './exchange';
import { errorResponse, isErrorResponse, RpcCode, type JsonRpcId, type JsonRpcMessage } from '../wire/jsonrpc';
import type { ClientSink, SessionHost } from './host';

/**
 * Longest a call's record waits for its sinks once the call has ended. A call confirmed to its client is on
 * disk within a second even if the process is then killed (the recorder's journal takes up to 250 ms more),
 * and a gateway stopping waits no longer than this for a hanging sink.
 */
export const RECORD_WAITS_FOR_SINKS_MS = 500;

export class SessionExchanges {
  /** Requests of the client, waiting for the backend (or the chain). */
  readonly fromClient = new Map<JsonRpcId, Exchange>();
  /** Requests of the backend, waiting for the client (or the chain). */
  readonly fromBackend = new Map<JsonRpcId, Exchange>();

  constructor(
    private readonly host: SessionHost,
    readonly sessionId: string,
    private readonly client: ClientSink,
    /** Sends to the backend when it is connected; dropped otherwise (nobody is left to answer). */
    private readonly toBackend: (message: JsonRpcMessage) => void,
    /** The session's negotiated protocol version: results the gateway makes follow its era. */
    private readonly protocolVersion: () => string | undefined = () => undefined,
  ) {}

  get size(): number {
    return this.fromClient.size + this.fromBackend.size;
  }

  /** The chain blocked the exchange: the asker gets the configured blocked answer. */
  answerBlocked(ex: Exchange): void {
    const block = ex.blockedBy!;
    if (ex.direction === 'client') {
      this.fromClient.delete(ex.id);
      const response = asEraResult(blockedResponse(ex.id, ex.method, block, this.host.config.blockedToolCall), this.protocolVersion());
      if (isErrorResponse(response)) ex.errorReturned = response.error;
      else ex.responseReturned = response.result;
      this.client.send(response, ex.id);
    } else {
      this.fromBackend.delete(ex.id);
      // The backend asked; it gets the JSON-RPC error (A9: non-tools/call methods).
      const response = blockedResponse(ex.id, ex.method, block, 'error') as { error: Exchange['errorReturned'] };
      ex.errorReturned = response.error;
      this.toBackend({ jsonrpc: '2.0', id: ex.id, error: response.error! });
    }
    this.record(ex);
  }

  /** Answers the exchange with a JSON-RPC error, in whichever direction it came from. */
  fail(ex: Exchange, code: number, message: string): void {
    if (ex.direction === 'client') return this.failFromClient(ex, code, message);
    this.fromBackend.delete(ex.id);
    ex.errorReturned = { code, message };
    this.toBackend(errorResponse(ex.id, code, message));
    this.record(ex);
  }

  /** Answers a client request with an error, unless it was answered (or cancelled) already. */
  failFromClient(ex: Exchange, code: number, message: string, data?: unknown): void {
    if (this.fromClient.get(ex.id) !== ex) return;
    this.fromClient.delete(ex.id);
    ex.errorReturned = data === undefined ? { code, message } : { code, message, data };
    this.client.send(errorResponse(ex.id, code, message, data), ex.id);
    this.record(ex);
  }

  /**
   * The client's initialize could not reach the backend: answered with the error and, unlike a successful
   * initialize, recorded (outcome error), so an unreachable backend shows in Traffic and the error counters.
   */
  failBackendConnect(id: JsonRpcId, code: number, message: string): void {
    const ex = this.fromClient.get(id);
    if (!ex || !this.fromClient.delete(id)) return;
    ex.errorReturned = { code, message };
    this.client.send(errorResponse(id, code, message), id);
    if (this.host.wantsRecords?.() === false) return this.host.count?.('error', performance.now() - ex.t0);
    this.host.onExecution(toExecutionRecord(ex, this.host.gatewayName, this.sessionId));
  }

  /** Requests the backend made of the client: forgotten when the backend died (nobody takes their answer). */
  dropBackendRequests(): void {
    for (const ex of this.fromBackend.values()) ex.chain?.release();
    this.fromBackend.clear();
  }

  /**
   * The session closes with exchanges still open: chains in flight are aborted, and each exchange is
   * recorded once, as an error saying why (the backend may well have run the call: history must show
   * it). `answer`: the client is still there (a gateway stopping) and gets that error too.
   */
  endAll(reason: string, answer: boolean): void {
    const open = [...this.fromClient.values()];
    const asked = [...this.fromBackend.values()];
    this.fromClient.clear();
    this.fromBackend.clear();
    for (const ex of open) {
      ex.abort?.abort(new Error(reason));
      ex.errorReturned = { code: RpcCode.BackendUnavailable, message: reason };
      if (answer) this.client.send(errorResponse(ex.id, RpcCode.BackendUnavailable, reason), ex.id);
      this.record(ex);
    }
    for (const ex of asked) {
      ex.errorReturned = { code: RpcCode.BackendUnavailable, message: reason };
      this.record(ex);
    }
  }

  /**
   * Records the exchange once it is answered. Its sinks may still be running (they are off the call's path):
   * then the record waits for their steps, with the duration taken now, but at most RECORD_WAITS_FOR_SINKS_MS;
   * a sink still running then is recorded as not recorded. The host tracks that wait, so that a gateway
   * stopping records the exchange before it closes its interceptor servers and its recorder.
   */
  record(ex: Exchange): void {
    ex.endedAt ??= performance.now();
    const sinks = ex.sinks;
    if (sinks) {
      ex.sinks = undefined;
      const cap = setTimeout(() => {
        const detail = `no answer within ${RECORD_WAITS_FOR_SINKS_MS} ms of the call's end: the call was recorded without it`;
        for (const s of sinks) s.cutOff(detail);
      }, RECORD_WAITS_FOR_SINKS_MS);
      const recorded = Promise.all(sinks.map((s) => s.done))
        .then(() => {
          clearTimeout(cap);
          this.record(ex);
        })
        .catch((err: unknown) => this.host.log(`recording ${ex.method} failed after its sinks ran: ${(err as Error).message}`));
      this.host.awaitBeforeStop?.(recorded);
      return;
    }
    ex.chain?.release();
    if (ex.method === 'initialize') return;
    if (this.host.wantsRecords?.() === false) return this.host.count?.(outcomeOf(ex), ex.endedAt - ex.t0);
    this.host.onExecution(toExecutionRecord(ex, this.host.gatewayName, this.sessionId));
  }
}
