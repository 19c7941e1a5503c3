// The Playground's built-in MCP client. Its connections live here in the core (never in the renderer,
// which cannot spawn a process or hold a bearer token safely): a gateway's HTTP listener with that
// gateway's own token, any server by command (stdio) or URL (Streamable HTTP). Calls through a gateway
// go through its chain and are recorded like any client's. It declares sampling, elicitation and roots;
// the server's requests for them wait for the user in the Client tab (client-requests/). An HTTP server
// that answers the connect with 401 is authorized with OAuth first (client-oauth/).
import { randomUUID } from 'node:crypto';
import { Client, SdkHttpError, StreamableHTTPClientTransport, UnauthorizedError, type Transport } from '@modelcontextprotocol/client';
import { ApiError } from '../../../shared/api/envelope';
import type { ClientCatalog, ClientSession, ClientTarget } from '../../../shared/api/models-playground';
import type { GatewayManager } from '../gateway-manager';
import { DEFAULT_ANSWER_TIMEOUT_MS, type ClientRoot, type PendingServerRequest, type ServerRequestAnswer } from '../../../shared/api/models-client-requests';
import { CLIENT_CAPABILITIES, installServerRequestHandlers } from './client-requests/handlers';
import { PendingServerRequests } from './client-requests/pending-requests';
import { completionRef, type ClientCompletion, type ClientCompletionInput } from '../../../shared/api/models-client-completion';
import { ClientNotifications, type ClientNotification } from './client-notifications';
import { flush, trackSends } from './client-sends';
import { transportFor } from './client-transports';
import { ClientAuthorizations } from './client-oauth/authorizations';
import { DEFAULT_AUTHORIZATION_TIMEOUT_MS, type ClientAuthorization } from '../../../shared/api/models-client-oauth';

/** Open sessions are bounded: the oldest is closed when a new one would exceed this. */
const MAX_SESSIONS = 8;
const CONNECT_TIMEOUT_MS = 20_000;
const CALL_TIMEOUT_MS = 60_000;
const MAX_PAGES = 20;

type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

interface Open {
  info: ClientSession;
  client: Client;
  transport: Transport;
  /** Messages being sent to the server: a closing session waits for them (its rejections of pending requests). */
  sends: Set<Promise<void>>;
}

export interface ConnectOptions {
  roots?: ClientRoot[];
  answerTimeoutMs?: number;
  authorizationTimeoutMs?: number;
}

const CLIENT_NAME = 'interceptor-console-playground';

export class ClientSessions {
  private readonly open = new Map<string, Open>();
  private readonly pending: PendingServerRequests;
  private readonly notes = new ClientNotifications();
  private readonly authorizations: ClientAuthorizations;

  constructor(
    private readonly manager: () => GatewayManager,
    private readonly version: string,
    /** Told when a session's pending server→client requests (or the roots the server read) change. */
    private readonly onRequestsChanged: (sessionId: string, pending: number) => void = () => undefined,
    /** Told when the connects waiting for the user to authorize them in a browser change. */
    onAuthorizationsChanged: (waiting: number) => void = () => undefined,
  ) {
    this.pending = new PendingServerRequests(onRequestsChanged);
    this.authorizations = new ClientAuthorizations('Interceptor Console (Playground client)', onAuthorizationsChanged);
  }

  /** Connects waiting for the user to authorize them at the server's authorization server. */
  waitingAuthorizations(): ClientAuthorization[] {
    return this.authorizations.list();
  }

  cancelAuthorization(authorizationId: string): { cancelled: boolean } {
    return { cancelled: this.authorizations.cancel(authorizationId) };
  }

  async connect(target: ClientTarget, options: ConnectOptions = {}): Promise<ClientSession> {
    const { transport: plain, label } = transportFor(target, this.manager);
    // The id exists before connect: a server may ask for roots or sampling during the handshake.
    const sessionId = randomUUID();
    const answerTimeoutMs = options.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS;
    const roots = options.roots ?? [];
    // Counted from the first roots/list, which may come during the handshake (before the session is open).
    const listed: { rootsListCount: number; rootsListedAt?: string } = { rootsListCount: 0 };
    const connectOver = async (transport: Transport) => {
      const sends = trackSends(transport);
      const client = this.newClient(sessionId, roots, answerTimeoutMs, listed);
      try {
        await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
      } catch (err) {
        await client.close().catch(() => undefined);
        throw err;
      }
      return { client, transport, sends };
    };
    let connected: { client: Client; transport: Transport; sends: Set<Promise<void>> };
    try {
      connected = await connectOver(plain);
    } catch (err) {
      if (target.kind !== 'http' || !SdkHttpError.isInstance(err) || err.status !== 401) {
        throw new ApiError('failed', `Could not connect to ${label}: ${(err as Error).message}`);
      }
      // The server wants authorization: the OAuth flow (client-oauth/) ends in a connection or an ApiError.
      connected = await this.authorizations.authorize({
        id: sessionId,
        label,
        url: new URL(target.url),
        headers: target.headers ?? {},
        timeoutMs: options.authorizationTimeoutMs ?? DEFAULT_AUTHORIZATION_TIMEOUT_MS,
        connect: connectOver,
      });
    }
    const { client, transport, sends } = connected;
    const serverInfo = client.getServerVersion();
    const info: ClientSession = {
      sessionId,
      label,
      target,
      ...(serverInfo ? { serverInfo: { ...serverInfo } } : {}),
      ...(client.getNegotiatedProtocolVersion() ? { protocolVersion: client.getNegotiatedProtocolVersion() } : {}),
      ...(client.getInstructions() ? { instructions: client.getInstructions() } : {}),
      capabilities: { ...(client.getServerCapabilities() ?? {}) },
      connectedAt: new Date().toISOString(),
      clientCapabilities: structuredClone(CLIENT_CAPABILITIES) as Record<string, unknown>,
      roots,
      ...listed,
      answerTimeoutMs,
    };
    client.onclose = () => {
      this.open.delete(sessionId);
      this.pending.dropSession(sessionId, 'the server or its transport closed it');
    };
    this.open.set(sessionId, { info, client, transport, sends });
    if (this.open.size > MAX_SESSIONS) {
      const oldest = this.open.keys().next().value!;
      await this.disconnect(oldest);
    }
    return info;
  }

  /** A client with the session's server→client request handlers and notification keeping installed. */
  private newClient(sessionId: string, roots: ClientRoot[], answerTimeoutMs: number, listed: { rootsListCount: number; rootsListedAt?: string }): Client {
    const client = new Client({ name: CLIENT_NAME, version: this.version }, { capabilities: { ...CLIENT_CAPABILITIES } });
    installServerRequestHandlers(client, this.pending, () => ({
      sessionId,
      answerTimeoutMs,
      roots: () => this.open.get(sessionId)?.info.roots ?? roots,
      onRootsListed: () => {
        listed.rootsListCount++;
        listed.rootsListedAt = new Date().toISOString();
        const open = this.open.get(sessionId);
        if (open) open.info = { ...open.info, ...listed };
        this.onRequestsChanged(sessionId, this.pending.list(sessionId).length);
      },
    }));
    // Every notification the SDK has no handler of its own for (log messages, list and resource changes):
    // set before connecting, since a server may log during the handshake.
    client.fallbackNotificationHandler = async (n) => this.notes.add(sessionId, n.method, n.params);
    // Progress is kept here rather than through a call's onprogress: the SDK dispatches notifications a
    // microtask late but drops a call's progress handler as soon as its response arrives, so the last
    // progress a server writes in the same chunk as the response would be lost (and reported as an error).
    client.setNotificationHandler('notifications/progress', (n) => this.notes.add(sessionId, n.method, n.params));
    return client;
  }

  sessions(): ClientSession[] {
    return [...this.open.values()].map((o) => o.info);
  }

  /**
   * Closes a session. The server's requests still waiting for the user are answered first, with an error
   * saying the connection was closed (the server, and a gateway's history, get that error, never a silence
   * that times out later), and a Streamable HTTP session is ended (DELETE), so a gateway ends its session too.
   */
  async disconnect(sessionId: string, why = 'the user disconnected it'): Promise<void> {
    const open = this.open.get(sessionId);
    this.open.delete(sessionId);
    this.notes.drop(sessionId);
    const dropped = this.pending.dropSession(sessionId, why);
    if (!open) return;
    if (dropped > 0) await flush(open.sends);
    if (open.transport instanceof StreamableHTTPClientTransport) await open.transport.terminateSession().catch(() => undefined);
    await open.client.close().catch(() => undefined);
  }

  pendingRequests(sessionId?: string): PendingServerRequest[] {
    return this.pending.list(sessionId);
  }

  answer(sessionId: string, requestId: string, answer: ServerRequestAnswer): void {
    this.pending.answer(sessionId, requestId, answer);
  }

  /** Replaces the roots and tells the server (notifications/roots/list_changed), which then asks for them. */
  async setRoots(sessionId: string, roots: ClientRoot[]): Promise<{ roots: ClientRoot[]; notified: boolean }> {
    const open = this.session(sessionId);
    open.info = { ...open.info, roots };
    try {
      await open.client.sendRootsListChanged();
      return { roots, notified: true };
    } catch (err) {
      throw new ApiError(
        'failed',
        `The roots were changed here but the server could not be told (notifications/roots/list_changed): ${(err as Error).message}`,
      );
    }
  }

  /** What the server sent on its own since notification `after` (log messages, progress, changes). */
  notifications(sessionId: string, after = 0): ClientNotification[] {
    this.session(sessionId);
    return this.notes.list(sessionId, after);
  }

  /** `resources/subscribe`: the server then says when the resource changes (notifications/resources/updated). */
  async subscribe(sessionId: string, uri: string): Promise<{ subscribed: true }> {
    const { client, info } = this.session(sessionId);
    if (!(info.capabilities as { resources?: { subscribe?: boolean } }).resources?.subscribe) {
      throw new ApiError('conflict', 'The server does not offer resource subscriptions (capabilities.resources.subscribe).');
    }
    try {
      await client.subscribeResource({ uri }, { timeout: CALL_TIMEOUT_MS });
    } catch (err) {
      throw new ApiError('failed', `The server refused resources/subscribe for ${uri}: ${(err as Error).message}`);
    }
    return { subscribed: true };
  }

  /**
   * `completion/complete`: the values the server suggests for what was typed in a prompt's argument
   * (ref/prompt) or in a variable of a resource template's URI (ref/resource, the template as listed).
   */
  async complete(input: ClientCompletionInput): Promise<ClientCompletion> {
    const { client, info } = this.session(input.sessionId);
    if (!(info.capabilities as { completions?: unknown }).completions) {
      throw new ApiError('conflict', 'The server does not offer completions (no "completions" capability).');
    }
    const ref = completionRef(input);
    const { argument, context } = input;
    const what = ref.type === 'ref/prompt' ? `prompt ${ref.name}, argument ${argument.name}` : `resource template ${ref.uri}, variable ${argument.name}`;
    try {
      const r = await client.complete(
        { ref, argument, ...(Object.keys(context).length ? { context: { arguments: context } } : {}) },
        { timeout: CALL_TIMEOUT_MS },
      );
      return r.completion;
    } catch (err) {
      throw new ApiError('failed', `completion/complete for ${what} failed: ${(err as Error).message}`);
    }
  }

  /** `ping`: the server's round trip, ms. */
  async ping(sessionId: string): Promise<{ roundTripMs: number }> {
    const { client } = this.session(sessionId);
    const started = performance.now();
    try {
      await client.ping({ timeout: CALL_TIMEOUT_MS });
    } catch (err) {
      throw new ApiError('failed', `The server did not answer ping: ${(err as Error).message}`);
    }
    return { roundTripMs: Math.round((performance.now() - started) * 10) / 10 };
  }

  /** `logging/setLevel`: the least severe log message the server sends from now on. */
  async setLogLevel(sessionId: string, level: LoggingLevel): Promise<{ level: string }> {
    const { client, info } = this.session(sessionId);
    if (!(info.capabilities as { logging?: unknown }).logging) {
      throw new ApiError('conflict', 'The server does not offer logging (no "logging" capability), so it has no level to set.');
    }
    try {
      await client.setLoggingLevel(level, { timeout: CALL_TIMEOUT_MS });
    } catch (err) {
      throw new ApiError('failed', `The server refused logging/setLevel ${level}: ${(err as Error).message}`);
    }
    return { level };
  }

  /** Every list the server offers, drained; a list that fails is reported in `errors`, never hidden. */
  async list(sessionId: string): Promise<ClientCatalog> {
    const { client, info } = this.session(sessionId);
    const caps = info.capabilities as { tools?: unknown; prompts?: unknown; resources?: unknown };
    const errors: Record<string, string> = {};
    const drain = async <T>(key: string, offered: boolean, page: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>) => {
      if (!offered) {
        errors[key] = `the server does not offer ${key}`;
        return [];
      }
      const out: T[] = [];
      let cursor: string | undefined;
      try {
        for (let i = 0; i < MAX_PAGES; i++) {
          const r = await page(cursor);
          out.push(...r.items);
          cursor = r.nextCursor;
          if (!cursor) break;
        }
      } catch (err) {
        errors[key] = (err as Error).message;
      }
      return out;
    };
    const opts = { timeout: CALL_TIMEOUT_MS };
    const [tools, prompts, resources, resourceTemplates] = await Promise.all([
      drain('tools', Boolean(caps.tools), async (cursor) => {
        const r = await client.listTools(cursor ? { cursor } : undefined, opts);
        return { items: r.tools, nextCursor: r.nextCursor };
      }),
      drain('prompts', Boolean(caps.prompts), async (cursor) => {
        const r = await client.listPrompts(cursor ? { cursor } : undefined, opts);
        return { items: r.prompts, nextCursor: r.nextCursor };
      }),
      drain('resources', Boolean(caps.resources), async (cursor) => {
        const r = await client.listResources(cursor ? { cursor } : undefined, opts);
        return { items: r.resources, nextCursor: r.nextCursor };
      }),
      drain('resourceTemplates', Boolean(caps.resources), async (cursor) => {
        const r = await client.listResourceTemplates(cursor ? { cursor } : undefined, opts);
        return { items: r.resourceTemplates, nextCursor: r.nextCursor };
      }),
    ]);
    const plain = (items: unknown[]) => items as Record<string, unknown>[];
    return { tools: plain(tools), prompts: plain(prompts), resources: plain(resources), resourceTemplates: plain(resourceTemplates), errors };
  }

  callTool(sessionId: string, name: string, args: Record<string, unknown>) {
    // A progress token goes with every call, so a server that reports progress can. The notifications
    // themselves are kept by the session's own progress handler (see connect), so this one does nothing.
    const onprogress = () => undefined;
    return this.timed(sessionId, `tools/call "${name}"`, (c, timeout) => c.callTool({ name, arguments: args }, { timeout, onprogress }));
  }

  getPrompt(sessionId: string, name: string, args: Record<string, string>) {
    return this.timed(sessionId, `prompts/get "${name}"`, (c, timeout) => c.getPrompt({ name, arguments: args }, { timeout }));
  }

  readResource(sessionId: string, uri: string) {
    return this.timed(sessionId, `resources/read "${uri}"`, (c, timeout) => c.readResource({ uri }, { timeout }));
  }

  async close(): Promise<void> {
    this.authorizations.close();
    await Promise.all([...this.open.keys()].map((id) => this.disconnect(id, 'the Interceptor Console is shutting down')));
  }

  private async timed(sessionId: string, what: string, op: (c: Client, timeoutMs: number) => Promise<object>) {
    const { client, info } = this.session(sessionId);
    const t0 = performance.now();
    try {
      // A call may wait on the user answering the server's sampling or elicitation request: its deadline
      // covers that wait, so the call's own error never hides the answer's timeout.
      const result = (await op(client, CALL_TIMEOUT_MS + info.answerTimeoutMs)) as Record<string, unknown>;
      return { result: { ...result }, durationMs: performance.now() - t0 };
    } catch (err) {
      // An authorized session whose token the server stopped accepting: the loopback callback is gone,
      // so authorizing again means a new connect.
      if (UnauthorizedError.isInstance(err)) {
        throw new ApiError('failed', `${what} failed: the server no longer accepts this session's OAuth token (HTTP 401); connect again to authorize anew.`);
      }
      throw new ApiError('failed', `${what} failed: ${(err as Error).message}`);
    }
  }

  private session(sessionId: string): Open {
    const open = this.open.get(sessionId);
    if (!open) throw new ApiError('not_found', `No open client session "${sessionId}" (it was closed or the server went away); connect again.`);
    return open;
  }
}
