// 2026-07-28 traffic on the HTTP listener: no initialize and no Mcp-Session-Id, every POST carries one
// request whose `_meta` envelope says who the client is. Such requests share one GatewaySession (and so one
// backend connection) per principal; each POST gets its own stateless SDK transport for its response stream.
// Ids and progress tokens are rewritten on the way in (clients of one principal may reuse them) and back on
// the way out. The era has no server→client requests: a backend asking one gets an error.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { errorResponse, isNotification, isRequest, RpcCode, type JsonRpcId, type JsonRpcMessage } from './jsonrpc';
import { GatewaySession, type SessionHost } from './session';

type Transport = NodeStreamableHTTPServerTransport;
interface Route {
  transport: Transport;
  clientId: JsonRpcId;
}

/** True for a protocol-version header of the 2026 era or later (dates compare as strings). */
export function isModernVersion(header: string | string[] | undefined): boolean {
  return typeof header === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(header) && header >= '2026-07-28';
}

class ModernHub {
  readonly session: GatewaySession;
  private readonly routes = new Map<JsonRpcId, Route>();
  private readonly tokens = new Map<string, { transport: Transport; token: unknown }>();
  private seq = 0;

  constructor(host: SessionHost, principal: string | undefined) {
    this.session = new GatewaySession(host, { send: (m, related) => this.toClient(m, related) }, { principal, transport: 'http' });
  }

  fromClient(message: JsonRpcMessage, transport: Transport): void {
    if (!isRequest(message)) {
      if (isNotification(message)) this.session.handleClientMessage(message);
      return; // responses: this era has no server→client requests to answer
    }
    const id = `m${++this.seq}`;
    this.routes.set(id, { transport, clientId: message.id });
    let params = message.params;
    const meta = params?._meta as Record<string, unknown> | undefined;
    if (meta && meta.progressToken !== undefined) {
      const token = `p${this.seq}`;
      this.tokens.set(token, { transport, token: meta.progressToken });
      params = { ...params, _meta: { ...meta, progressToken: token } };
    }
    this.session.handleClientMessage({ ...message, id, ...(params ? { params } : {}) });
  }

  /** The client closed a response stream before its answer: in this era that is the cancellation. */
  abandon(transport: Transport): void {
    for (const [id, route] of this.routes) {
      if (route.transport !== transport) continue;
      this.routes.delete(id);
      this.session.handleClientMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'response stream closed' } });
    }
    for (const [token, t] of this.tokens) if (t.transport === transport) this.tokens.delete(token);
  }

  private toClient(message: JsonRpcMessage, related: JsonRpcId | undefined): void {
    if (isRequest(message)) {
      this.session.handleClientMessage(
        errorResponse(message.id, RpcCode.MethodNotFound, `${message.method} cannot reach a 2026-07-28 client over HTTP (no server→client requests in that revision)`),
      );
      return;
    }
    if (isNotification(message)) {
      if (message.method === 'notifications/progress') {
        const t = this.tokens.get(String(message.params?.progressToken));
        if (t) void this.deliver(t.transport, { ...message, params: { ...message.params, progressToken: t.token } } as JsonRpcMessage, related);
        return;
      }
      const route = related !== undefined ? this.routes.get(related) : undefined;
      if (route) void this.deliver(route.transport, message, related);
      return; // unrelated notifications need subscriptions/listen, which this gateway does not serve
    }
    const id = (message as { id: JsonRpcId | null }).id;
    const route = id !== null ? this.routes.get(id) : undefined;
    if (!route || id === null) return;
    this.routes.delete(id);
    for (const [token, t] of this.tokens) if (t.transport === route.transport) this.tokens.delete(token);
    void this.deliver(route.transport, { ...message, id: route.clientId } as JsonRpcMessage, id);
  }

  private async deliver(transport: Transport, message: JsonRpcMessage, related: JsonRpcId | undefined): Promise<void> {
    const route = related !== undefined ? this.routes.get(related) : undefined;
    const relatedRequestId = route?.clientId ?? ('id' in message && !('method' in message) ? (message.id ?? undefined) : undefined);
    await transport
      .send(message as Parameters<Transport['send']>[0], relatedRequestId !== undefined && relatedRequestId !== null ? { relatedRequestId } : undefined)
      .catch(() => undefined);
  }
}

export class ModernHttp {
  private readonly hubs = new Map<string, ModernHub>();

  constructor(
    private readonly host: SessionHost,
    private readonly maxMessageBytes: number,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse, principal: string | undefined): Promise<void> {
    const key = principal ?? '';
    let hub = this.hubs.get(key);
    if (!hub) {
      hub = new ModernHub(this.host, principal);
      this.hubs.set(key, hub);
    }
    // The SDK transport checks MCP-Protocol-Version against its own list: accept the revision the client
    // announced (already known to be 2026-07-28 or later); the backend decides whether it speaks it.
    const version = req.headers['mcp-protocol-version'] as string;
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      maxRequestBodySize: this.maxMessageBytes,
      supportedProtocolVersions: [version],
    });
    const owner = hub;
    transport.onmessage = (message) => owner.fromClient(message as unknown as JsonRpcMessage, transport);
    res.once('close', () => {
      owner.abandon(transport);
      void transport.close().catch(() => undefined);
    });
    await transport.handleRequest(req, res);
  }

  async close(): Promise<void> {
    const hubs = [...this.hubs.values()];
    this.hubs.clear();
    await Promise.all(hubs.map((h) => h.session.close()));
  }
}
