// 2026-07-28 traffic on the HTTP listener: no initialize and no Mcp-Session-Id, every POST carries one
// request whose `_meta` envelope says who the client is. Such requests share one GatewaySession (and so one
// backend connection) per principal; each POST is answered on its own response, written here: JSON, or SSE
// once something related to the request (progress, a log, a subscription event) comes before its answer.
// An HTTP backend gets each request as its own POST with the client's protocol headers, and its HTTP status
// comes back with its answer (backend-2026-07-28.ts), so the gateway adds nothing a direct client would not see.
// Ids are rewritten on the way in (clients of one principal may reuse them), progress tokens only when two
// in flight collide, and both back on the way out; an answer comes in the framing the backend chose.
// The era has no server→client requests: a backend asking one gets an error.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toWebRequest } from '@modelcontextprotocol/node';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import type { Backend, Relay20260728 } from '../backend/backend';
import { errorResponse, isNotification, isRequest, RpcCode, type JsonRpcId, type JsonRpcMessage } from '../wire/jsonrpc';
import { entryRejection, statusForError } from './http-face-2026-07-28';
import { GatewaySession, type SessionHost } from '../session/session';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

interface Route {
  res: ServerResponse;
  clientId: JsonRpcId;
  /** The client's protocol headers, sent upstream with its request (HTTP backends). */
  upstream: Record<string, string>;
  /** The backend's HTTP answer, mirrored to the client: its status, SSE or JSON, a null id. */
  head?: { status: number; sse: boolean; nullId: boolean };
  streaming: boolean;
}

/** Client headers an HTTP backend must see as sent: the protocol's own (`MCP-*`) and content negotiation. */
function upstreamHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value !== 'string') continue;
    if (name.startsWith('mcp-') || name === 'accept' || name === 'content-type' || name === 'last-event-id') out[name] = value;
  }
  return out;
}

/**
 * Whether the SDK's own classifier (the one a v2 server runs) reads this POST as 2026-07-28 traffic:
 * the gateway routes exactly as its backend would.
 */
export async function isRequest20260728(req: IncomingMessage, body: unknown): Promise<boolean> {
  if (body === undefined) return false;
  return !(await isLegacyRequest(await toWebRequest(req, body)));
}

class Hub20260728 implements Relay20260728 {
  readonly session: GatewaySession;
  private readonly routes = new Map<JsonRpcId, Route>();
  private readonly tokens = new Map<string, { route: Route; token: unknown }>();
  private seq = 0;

  constructor(host: SessionHost, principal: string | undefined) {
    const createBackend = (): Backend => {
      const backend = host.createBackend();
      backend.rev20260728 = this;
      return backend;
    };
    const hubHost: SessionHost = {
      get config() {
        return host.config;
      },
      get gatewayName() {
        return host.gatewayName;
      },
      get interception() {
        return host.interception;
      },
      createBackend,
      log: (line) => host.log(line),
      onSession: (r) => host.onSession(r),
      onExecution: (r) => host.onExecution(r),
      wantsRecords: host.wantsRecords ? () => host.wantsRecords!() : undefined,
      count: host.count ? (o, d) => host.count!(o, d) : undefined,
      get propagateTrace() {
        return host.propagateTrace;
      },
      onBackendEvent: (e) => host.onBackendEvent(e),
      messageTap: host.messageTap ? (id) => host.messageTap!(id) : undefined,
      awaitBeforeStop: host.awaitBeforeStop ? (work) => host.awaitBeforeStop!(work) : undefined,
    };
    this.session = new GatewaySession(hubHost, { send: (m, related) => this.toClient(m, related) }, { principal, transport: 'http' });
  }

  headersFor(message: JsonRpcMessage): Record<string, string> | undefined {
    return isRequest(message) ? this.routes.get(message.id)?.upstream : undefined;
  }

  onHead(id: JsonRpcId, head: { status: number; sse: boolean; nullId: boolean }): void {
    const route = this.routes.get(id);
    if (route) route.head = head;
  }

  fromClient(message: JsonRpcMessage, req: IncomingMessage, res: ServerResponse): void {
    if (!isRequest(message)) {
      if (isNotification(message)) this.session.handleClientMessage(message);
      res.writeHead(202).end();
      return;
    }
    const id = `m${++this.seq}`;
    const route: Route = { res, clientId: message.id, upstream: upstreamHeaders(req), streaming: false };
    this.routes.set(id, route);
    res.once('close', () => this.abandon(id, route));
    let params = message.params;
    const meta = params?._meta as Record<string, unknown> | undefined;
    if (meta && meta.progressToken !== undefined) {
      // The backend sees the client's own token (a tool may echo it) unless another request of this
      // principal in flight uses the same one: only then is it replaced by one of the gateway's.
      let key = JSON.stringify(meta.progressToken);
      if (this.tokens.has(key)) {
        const token = `ic-progress-${this.seq}`;
        key = JSON.stringify(token);
        params = { ...params, _meta: { ...meta, progressToken: token } };
      }
      this.tokens.set(key, { route, token: meta.progressToken });
    }
    this.session.handleClientMessage({ ...message, id, ...(params ? { params } : {}) });
  }

  /** The client closed a response stream before its answer: in this era that is the cancellation. */
  private abandon(id: JsonRpcId, route: Route): void {
    for (const [token, t] of this.tokens) if (t.route === route) this.tokens.delete(token);
    if (!this.routes.delete(id)) return;
    this.session.handleClientMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'response stream closed' } });
  }

  private toClient(message: JsonRpcMessage, related: JsonRpcId | undefined): void {
    if (isRequest(message)) {
      this.session.handleClientMessage(
        errorResponse(
          message.id,
          RpcCode.MethodNotFound,
          `${message.method} cannot reach a 2026-07-28 client over HTTP (no server→client requests in that revision)`,
        ),
      );
      return;
    }
    if (isNotification(message)) {
      if (message.method === 'notifications/progress') {
        const t = this.tokens.get(JSON.stringify(message.params?.progressToken));
        if (t) write(t.route, { ...message, params: { ...message.params, progressToken: t.token } } as JsonRpcMessage, false);
        return;
      }
      // A subscriptions/listen stream's notifications name it by its request id, which the gateway rewrote:
      // they go to that stream, with the client's own id.
      const meta = message.params?._meta as Record<string, unknown> | undefined;
      const subscription = meta?.[SUBSCRIPTION_ID] as JsonRpcId | undefined;
      const listen = subscription !== undefined ? this.routes.get(subscription) : undefined;
      if (listen) {
        write(listen, { ...message, params: { ...message.params, _meta: { ...meta, [SUBSCRIPTION_ID]: listen.clientId } } }, false);
        return;
      }
      const route = related !== undefined ? this.routes.get(related) : undefined;
      if (route) write(route, message, false);
      return; // unrelated notifications belong to subscriptions/listen streams, which carry their own
    }
    const id = (message as { id: JsonRpcId | null }).id;
    const route = id !== null ? this.routes.get(id) : undefined;
    if (!route || id === null) return;
    this.routes.delete(id);
    for (const [token, t] of this.tokens) if (t.route === route) this.tokens.delete(token);
    write(route, { ...message, id: route.head?.nullId ? null : route.clientId } as JsonRpcMessage, true);
  }
}

/**
 * Writes one message on a request's response, in the framing the backend used: one JSON body when it is the
 * only message; when messages come before the answer, an SSE stream, or newline-delimited JSON in a chunked
 * `application/json` body when that is how the HTTP backend streamed it (each framing is one a direct client
 * of that backend already reads). Without a backend HTTP answer (stdio), the SSE a v2 HTTP server writes.
 */
function write(route: Route, message: JsonRpcMessage, final: boolean): void {
  const res = route.res;
  if (res.writableEnded || res.destroyed) return;
  const head = route.head;
  if (!route.streaming && final && !head?.sse) {
    // Without a backend HTTP status (stdio), the status a v2 HTTP server gives the error.
    res.writeHead(head?.status ?? statusForError((message as { error?: { code?: number } }).error?.code), { 'content-type': 'application/json' });
    res.end(JSON.stringify(message));
    return;
  }
  const jsonLines = head !== undefined && !head.sse;
  if (!route.streaming) {
    route.streaming = true;
    if (jsonLines) res.writeHead(head.status, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
    else res.writeHead(head?.sse ? head.status : 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    // Headers go out now: a listen stream's client waits for them before its first notification.
    res.flushHeaders();
  }
  res.write(jsonLines ? `${JSON.stringify(message)}\n` : `event: message\ndata: ${JSON.stringify(message)}\n\n`);
  if (final) res.end();
}

export class Http20260728 {
  private readonly hubs = new Map<string, Hub20260728>();

  constructor(private readonly host: SessionHost) {}

  /** One 2026-07-28 POST whose body the listener already read and parsed. */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, principal: string | undefined): void {
    const key = principal ?? '';
    let hub = this.hubs.get(key);
    if (!hub) {
      hub = new Hub20260728(this.host, principal);
      this.hubs.set(key, hub);
    }
    if (!body || typeof body !== 'object' || Array.isArray(body) || (body as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errorResponse(null, RpcCode.InvalidRequest, 'Invalid Request: the body must be one JSON-RPC 2.0 message')));
      return;
    }
    // An HTTP backend judges the request itself (its answer comes back as given). A stdio backend has no
    // HTTP face: the gateway shows the one a v2 HTTP server shows (http-face-2026-07-28.ts), which also keeps a
    // malformed request from becoming a stdio backend's opening exchange (that would pin it to 2025).
    if (this.host.config.backend.transport === 'stdio') {
      const rejection = entryRejection(req, body);
      if (rejection) {
        res.writeHead(rejection.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(rejection.body));
        return;
      }
    }
    hub.fromClient(body as JsonRpcMessage, req, res);
  }

  /** The shared sessions (one per principal), for a graceful stop. */
  sessions(): GatewaySession[] {
    return [...this.hubs.values()].map((h) => h.session);
  }

  /** `reason`: requests in flight are answered with it (a gateway stopping), and recorded either way. */
  async close(reason?: string): Promise<void> {
    const hubs = [...this.hubs.values()];
    this.hubs.clear();
    await Promise.all(hubs.map((h) => h.session.close(reason ? { reason, answer: true } : {})));
  }
}
