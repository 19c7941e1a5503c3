// Replay through the backend: a recorded request is re-sent through a gateway's CURRENT chain to its
// backend by a real GatewaySession, the same code every client's traffic runs through, with an
// in-process client standing in for the MCP client. Nothing about interception is duplicated here: the
// session runs the request chain, forwards, runs the response chain and records the exchange; this file
// only marks that record as a replay of the original and hands it to the recorder.
import type { ExecutionRecord, Recorder, SessionRecord } from '../../../shared/trace/execution';
import type { Backend } from '../backend/backend';
import type { Interception } from '../intercept';
import { isErrorResponse, isNotification, isRequest, RpcCode, type JsonRpcId, type JsonRpcMessage, type JsonRpcResponse } from '../wire/jsonrpc';
import { GatewaySession, type SessionHost } from '../session/session';
import type { GatewayConfig } from '../../../shared/config/schema';

/** What a replay needs of a gateway: its current config and interception, and a way to reach its backend. `Gateway` is one. */
export interface ReplayHost {
  readonly config: GatewayConfig;
  readonly gatewayName: string;
  readonly interception: Interception;
  createBackend(): Backend;
  log(line: string): void;
}

export interface ReplayClientOptions {
  /** Replays run as the original session's principal, so its dynamic interceptors apply too. */
  principal?: string;
  /** Offered in initialize (the original session's negotiated version, when known). */
  protocolVersion?: string;
  /** Longest wait for one replayed request before it is cancelled and recorded as such. Default 30 s. */
  timeoutMs?: number;
}

/** Requests a backend sends to a client: a replay cannot re-create them against the backend. */
export const SERVER_TO_CLIENT_METHODS: ReadonlySet<string> = new Set(['sampling/createMessage', 'elicitation/create', 'roots/list']);

export const DEFAULT_REPLAY_PROTOCOL_VERSION = '2025-11-25';

interface Waiter {
  replayOf: string;
  resolve(record: ExecutionRecord): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
}

/** One replay session against a gateway's backend; reuse it for many requests (bulk replay), then close it. */
export class ReplayClient {
  private readonly session: GatewaySession;
  private readonly waiting = new Map<JsonRpcId, Waiter>();
  /** Requests given up on whose record may still arrive: it is still recorded as a replay. */
  private readonly late = new Map<JsonRpcId, string>();
  private seq = 0;
  private initWaiter?: { resolve(r: JsonRpcResponse): void };
  private closed = false;

  private constructor(
    host: ReplayHost,
    private readonly recorder: Recorder | null,
    private readonly options: ReplayClientOptions,
  ) {
    const sessionHost: SessionHost = {
      // Getters: a config hot swap of a running gateway applies to the next replayed request.
      get config() {
        return host.config;
      },
      get gatewayName() {
        return host.gatewayName;
      },
      get interception() {
        return host.interception;
      },
      createBackend: () => host.createBackend(),
      log: (line) => host.log(line),
      onSession: (record: SessionRecord) => recorder?.recordSession(record),
      onExecution: (record) => this.onRecord(record),
      onBackendEvent: (event) => host.log(`replay: ${event.type}: ${event.detail}`),
    };
    this.session = new GatewaySession(
      sessionHost,
      { send: (message) => this.onMessage(message) },
      {
        transport: 'stdio',
        ...(options.principal ? { principal: options.principal } : {}),
      },
    );
  }

  /** Connects the gateway's backend for this replay session and initializes it. */
  static async open(host: ReplayHost, recorder: Recorder | null, options: ReplayClientOptions = {}): Promise<ReplayClient> {
    const client = new ReplayClient(host, recorder, options);
    try {
      await client.initialize();
    } catch (err) {
      await client.close();
      throw err;
    }
    return client;
  }

  /**
   * Re-sends one request; resolves with the execution the gateway recorded for it (already handed to the
   * recorder, marked `replayOf`). A request that outlives the timeout is cancelled, and that is recorded too.
   */
  send(method: string, params: unknown, replayOf: string): Promise<ExecutionRecord> {
    if (this.closed) return Promise.reject(new Error('the replay session is closed'));
    if (SERVER_TO_CLIENT_METHODS.has(method)) {
      return Promise.reject(
        new Error(`${method} is a request the backend sends to the client, so it cannot be re-sent to the backend; use "Replay chain only"`),
      );
    }
    const id = `replay-${++this.seq}`;
    return new Promise<ExecutionRecord>((resolve, reject) => {
      const waiter: Waiter = { replayOf, resolve, reject };
      waiter.timer = setTimeout(() => this.cancel(id), this.options.timeoutMs ?? 30_000);
      this.waiting.set(id, waiter);
      this.session.handleClientMessage({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params: params as Record<string, unknown> } : {}) });
    });
  }

  /** Cancels every pending request (each is recorded as cancelled) and ends the backend connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const id of [...this.waiting.keys()]) this.cancel(id);
    this.closed = true;
    await this.session.close();
  }

  private async initialize(): Promise<void> {
    const response = await new Promise<JsonRpcResponse>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the backend did not answer initialize within 30 s')), 30_000);
      this.initWaiter = {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      };
      this.session.handleClientMessage({
        jsonrpc: '2.0',
        id: 'replay-initialize',
        method: 'initialize',
        params: {
          protocolVersion: this.options.protocolVersion ?? DEFAULT_REPLAY_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'interceptor-console-replay', version: '1' },
        },
      });
    });
    if (isErrorResponse(response)) throw new Error(`the backend refused initialize: ${response.error.message}`);
    this.session.handleClientMessage({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  private cancel(id: JsonRpcId): void {
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    // The session records the exchange as cancelled (onRecord settles the waiter with that record).
    this.session.handleClientMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'replay timed out' } });
    if (this.waiting.has(id)) {
      // Already past the point of cancelling (its response chain is running): stop waiting, but still
      // mark the record as a replay when it arrives.
      this.waiting.delete(id);
      this.late.set(id, waiter.replayOf);
      waiter.reject(new Error(`the replayed request did not complete within ${this.options.timeoutMs ?? 30_000} ms`));
    }
  }

  private onMessage(message: JsonRpcMessage): void {
    if (isRequest(message)) {
      // The backend asked the client something (sampling, elicitation, roots): nobody is there to answer.
      this.session.handleClientMessage({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: RpcCode.MethodNotFound, message: `A replay has no client to answer ${message.method}` },
      });
      return;
    }
    if (isNotification(message)) return;
    const response = message as JsonRpcResponse;
    if (response.id === 'replay-initialize') {
      this.initWaiter?.resolve(response);
      return;
    }
    // Other responses need no handling: the session records each exchange, and onRecord settles it.
  }

  private onRecord(record: ExecutionRecord): void {
    const id = record.jsonrpcId;
    if (id === undefined) return;
    const waiter = this.waiting.get(id);
    const replayOf = waiter?.replayOf ?? this.late.get(id);
    if (replayOf === undefined) return;
    this.waiting.delete(id);
    this.late.delete(id);
    record.replayOf = replayOf;
    record.replayMode = 'backend';
    this.recorder?.recordExecution(record);
    if (waiter) {
      clearTimeout(waiter.timer);
      waiter.resolve(record);
    }
  }
}
