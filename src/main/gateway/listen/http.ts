// The Streamable HTTP listener: one SDK transport, one GatewaySession and one backend connection per client
// session. In front of every request: the path, then the shared request guard (src/main/security): Host and
// Origin (403) and the bearer-token map (token → principal; 401 without a known token when tokens are set).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { HttpListenConfig } from '../../../shared/config/schema';
import { MAX_PAYLOAD_DEPTH, nestedDeeperThan, tooDeepMessage } from '../../../shared/protocol/payload-depth';
import type { JsonRpcMessage } from '../wire/jsonrpc';
import { GatewaySession, type SessionHost } from '../session/session';
import { isRequest20260728, Http20260728 } from './http-2026-07-28';
import { RequestGuard } from '../../security/request-guard';
import { sessionEventStore } from './sse-event-store';

interface HttpSession {
  transport: NodeStreamableHTTPServerTransport;
  session: GatewaySession;
  principal: string | undefined;
  /** Whether the client holds its GET stream open (the only way to deliver unrelated server messages). */
  standaloneOpen: boolean;
  /** Unrelated messages sent before the GET stream opened (e.g. list_changed right after initialized). */
  backlog: JsonRpcMessage[];
}

/** Unrelated messages kept for a client that has not opened its GET stream yet. */
const BACKLOG_LIMIT = 200;
/** Time for the SDK transport to register a new GET stream before the backlog is flushed into it. */
const STREAM_SETTLE_MS = 20;

/** The `retry` the gateway's SSE streams announce: how long a client waits before resuming one (ms). */
const SSE_RETRY_MS = 500;

export class HttpListener {
  private server?: Server;
  private readonly sessions = new Map<string, HttpSession>();
  private readonly guard: RequestGuard;
  /** Sessions being opened (initialize in progress): they count towards maxSessions. */
  private opening = 0;
  private accepting = true;
  /** The sessions are closed: whatever still arrives is refused. */
  private closing = false;
  private reaper?: NodeJS.Timeout;
  private readonly rev20260728: Http20260728;

  constructor(
    private readonly host: SessionHost,
    private readonly listen: HttpListenConfig,
    private readonly maxMessageBytes: number,
  ) {
    this.guard = new RequestGuard({
      boundHost: listen.host,
      allowedHostnames: listen.allowedHosts,
      allowedOrigins: listen.allowedOrigins,
      tokens: listen.tokens ? new Map(Object.entries(listen.tokens)) : null,
      tokenSource: 'listen.tokens',
    });
    this.rev20260728 = new Http20260728(host);
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  get url(): string | undefined {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) return undefined;
    const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${hostname}:${address.port}${this.listen.path}`;
  }

  async start(): Promise<string> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        this.host.log(`http listener: ${(err as Error).message}`);
        if (!res.headersSent) reply(res, 500, { error: 'internal error', message: (err as Error).message });
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        const hint = err.code === 'EADDRINUSE' ? ' (the port is taken: pick another "listen.port", or 0 for a free one)' : '';
        reject(new Error(`could not listen on ${this.listen.host}:${this.listen.port}: ${err.message}${hint}`));
      });
      server.listen(this.listen.port, this.listen.host, () => resolve());
    });
    this.server = server;
    const idleMs = this.listen.sessionIdleTimeoutMs;
    this.reaper = setInterval(() => this.reapIdle(idleMs), Math.max(10, Math.min(Math.floor(idleMs / 4), 30_000)));
    this.reaper.unref();
    return this.url!;
  }

  /** Client sessions alive now (a graceful stop drains them). */
  liveSessions(): GatewaySession[] {
    return [...[...this.sessions.values()].map((s) => s.session), ...this.rev20260728.sessions()];
  }

  /** A graceful stop began: new sessions are refused; requests of live sessions get the session's own answer. */
  stopAccepting(): void {
    this.accepting = false;
  }

  /**
   * Closes every session and the server. `reason`: requests still in flight are answered with it (the
   * clients are still connected) and recorded.
   */
  async close(reason?: string): Promise<void> {
    if (this.reaper) clearInterval(this.reaper);
    this.reaper = undefined;
    this.accepting = false;
    const answer = reason !== undefined;
    const sessions = [...this.sessions.values()];
    // The sessions stay reachable until their backends are gone: a request that still arrives gets the
    // closed session's error (and is recorded) rather than "session not found" or a cut stream.
    const closing = [this.rev20260728.close(reason), ...sessions.map((s) => s.session.close({ ...(reason ? { reason } : {}), answer }))];
    await Promise.all(closing);
    // The answers just sent need a turn of the event loop to reach their response streams.
    await new Promise((resolve) => setImmediate(resolve));
    // From here on every request gets a clear 503 (never "session not found", never a cut stream).
    this.closing = true;
    this.sessions.clear();
    await Promise.all(sessions.map((s) => s.transport.close().catch(() => undefined)));
    const server = this.server;
    this.server = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  /** Sessions with nothing in flight, no open GET stream and no request for idleMs: their client is gone. */
  private reapIdle(idleMs: number): void {
    const now = performance.now();
    for (const [id, entry] of this.sessions) {
      if (entry.standaloneOpen || entry.session.inFlight > 0 || now - entry.session.lastActivity < idleMs) continue;
      this.sessions.delete(id);
      this.host.log(`http session ${id}: closed after ${idleMs} ms without a request (listen.sessionIdleTimeoutMs); its backend is stopped`);
      void entry.transport.close().catch(() => undefined);
      void entry.session.close({ reason: 'the client session was idle too long and was closed' });
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway.invalid');
    if (url.pathname !== this.listen.path) return reply(res, 404, { error: 'not found', message: `the MCP endpoint is ${this.listen.path}` });
    const auth = this.guard.check(req);
    if (!auth.ok) {
      if (auth.status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="interceptor-console"');
      return reply(res, auth.status, { error: auth.status === 401 ? 'unauthorized' : 'forbidden', message: auth.message });
    }
    if (this.closing) return reply(res, 503, rpcError(-32000, 'The gateway is stopping; retry once it runs again'));
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const existing = this.sessions.get(sessionId);
      if (!existing) return reply(res, 404, rpcError(-32001, `Session not found: ${sessionId} (it ended or the gateway restarted); initialize a new session`));
      if (existing.principal !== auth.principal) return reply(res, 403, { error: 'forbidden', message: 'this session belongs to another principal' });
      // A GET with Last-Event-ID resumes a stream (the transport replays what was missed); without, it opens the standalone one.
      if (req.method === 'GET' && req.headers['last-event-id'] === undefined) return this.openStandaloneStream(existing, req, res);
      if (req.method === 'GET') existing.session.clientResumed();
      return existing.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 400, rpcError(-32000, 'Bad Request: no Mcp-Session-Id header; start a session with an initialize POST'));
    if (!this.accepting) return reply(res, 503, rpcError(-32000, 'The gateway is stopping and takes no new sessions; retry once it runs again'));
    // The body is read here once: which era a POST belongs to is in its body (the 2026 `_meta` envelope).
    const body = await readBody(req, this.maxMessageBytes);
    if (body.kind === 'too-large')
      return reply(res, 413, rpcError(-32600, `the request body exceeds the gateway's cap of ${this.maxMessageBytes} bytes (maxMessageBytes)`));
    if (body.kind === 'invalid') return reply(res, 400, rpcError(-32700, 'Parse error: the body is not JSON'));
    // Before the SDK transport or the era check walk it (they recurse and would answer 500 with a stack
    // overflow). +1: the message's own object around its params. No session exists yet: nothing to record.
    if (nestedDeeperThan(body.value, MAX_PAYLOAD_DEPTH + 1)) return reply(res, 400, rpcError(-32602, tooDeepMessage('The request is'), idOf(body.value)));
    if (await isRequest20260728(req, body.value)) return this.rev20260728.handle(req, res, body.value, auth.principal);
    if (this.sessions.size + this.opening >= this.listen.maxSessions) {
      return reply(
        res,
        503,
        rpcError(
          -32000,
          `This gateway already serves ${this.listen.maxSessions} client sessions (listen.maxSessions): end one with DELETE, wait for idle ones to close, or raise listen.maxSessions`,
        ),
      );
    }
    this.opening++;
    const slot = { held: true };
    try {
      await this.openSession(req, res, auth.principal, body.value, slot);
    } finally {
      if (slot.held) this.opening--;
    }
  }

  /** `slot`: the opening slot counted towards maxSessions, handed over once the session is registered. */
  private async openSession(req: IncomingMessage, res: ServerResponse, principal: string | undefined, body: unknown, slot: { held: boolean }): Promise<void> {
    const ref: { entry?: HttpSession } = {};
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: this.maxMessageBytes,
      // Event ids, a priming event and `retry` on every stream, so a client can resume one (SEP-1699).
      eventStore: sessionEventStore(),
      retryInterval: SSE_RETRY_MS,
      onsessioninitialized: (id) => {
        if (!ref.entry) return;
        this.sessions.set(id, ref.entry);
        if (slot.held) this.opening--;
        slot.held = false;
      },
    });
    const session = new GatewaySession(
      this.host,
      {
        send: (message, relatedRequestId) => {
          const entry = ref.entry;
          if (relatedRequestId === undefined && 'method' in message && entry && !entry.standaloneOpen) {
            entry.backlog.push(message);
            if (entry.backlog.length > BACKLOG_LIMIT) entry.backlog.shift();
            return;
          }
          const options = relatedRequestId !== undefined ? { relatedRequestId } : undefined;
          transport.send(message as Parameters<typeof transport.send>[0], options).catch((err: Error) => {
            this.host.log(`http session ${transport.sessionId ?? '?'}: could not deliver a message: ${err.message}`);
          });
        },
        closeStream: (relatedRequestId) => transport.closeSSEStream(relatedRequestId),
      },
      { principal, transport: 'http' },
    );
    ref.entry = { transport, session, principal, standaloneOpen: false, backlog: [] };
    transport.onmessage = (message) => session.handleClientMessage(message as unknown as JsonRpcMessage);
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id) this.sessions.delete(id);
      void session.close();
    };
    await transport.handleRequest(req, res, body);
    // Not an initialize (the transport answered 400): nothing to keep.
    if (!transport.sessionId) {
      await transport.close().catch(() => undefined);
      await session.close();
    }
  }

  private async openStandaloneStream(entry: HttpSession, req: IncomingMessage, res: ServerResponse): Promise<void> {
    entry.standaloneOpen = true;
    res.once('close', () => {
      entry.standaloneOpen = false;
    });
    const timer = setTimeout(() => {
      const backlog = entry.backlog.splice(0);
      for (const message of backlog) entry.session.deliver(message);
    }, STREAM_SETTLE_MS);
    try {
      await entry.transport.handleRequest(req, res);
    } catch (err) {
      clearTimeout(timer);
      throw err;
    }
  }
}

async function readBody(req: IncomingMessage, cap: number): Promise<{ kind: 'ok'; value: unknown } | { kind: 'too-large' } | { kind: 'invalid' }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > cap) return { kind: 'too-large' };
    chunks.push(chunk);
  }
  try {
    return { kind: 'ok', value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { kind: 'invalid' };
  }
}

function rpcError(code: number, message: string, id: string | number | null = null): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** The id of a request body, when it has a usable one (errors answer it; null otherwise). */
function idOf(body: unknown): string | number | null {
  const id = body !== null && typeof body === 'object' ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function reply(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
