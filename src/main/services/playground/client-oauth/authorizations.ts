// MCP authorization for the built-in client's HTTP connections. A server answered the plain connect with
// 401; this runs the OAuth flow the SDK implements (discovery, dynamic registration, PKCE) with a provider
// whose redirect is a loopback callback of ours, shows the authorization URL to the user (listed by
// client.authorizations, announced by an event; the renderer opens it), waits for the browser to come back,
// has the code exchanged (finishAuth) and connects again with the token. Tokens stay in the session's
// provider, in memory.
import { StreamableHTTPClientTransport, UnauthorizedError, type OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { ApiError } from '../../../../shared/api/envelope';
import type { ClientAuthorization } from '../../../../shared/api/models-client-oauth';
import { LoopbackCallback } from './loopback-callback';
import { SessionOAuthProvider } from './session-oauth-provider';

export interface AuthorizeRequest<T> {
  /** The session id the connection will have; also the authorization's id. */
  id: string;
  label: string;
  url: URL;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Connects a client over the transport; throws what the SDK threw. */
  connect(transport: StreamableHTTPClientTransport): Promise<T>;
}

export class ClientAuthorizations {
  private readonly waiting = new Map<string, { info: ClientAuthorization; callback: LoopbackCallback }>();

  constructor(
    private readonly clientName: string,
    /** Told when the set of authorizations waiting for the user changes. */
    private readonly onChanged: (waiting: number) => void = () => undefined,
  ) {}

  list(): ClientAuthorization[] {
    return [...this.waiting.values()].map((w) => w.info);
  }

  cancel(id: string): boolean {
    const w = this.waiting.get(id);
    w?.callback.cancel(`The authorization of ${w.info.label} was cancelled in the console; connect again to retry.`);
    return Boolean(w);
  }

  async authorize<T>(req: AuthorizeRequest<T>): Promise<T> {
    const callback = await LoopbackCallback.open();
    const provider = new SessionOAuthProvider(callback.redirectUrl, callback.state, this.clientName);
    const transport = () => new StreamableHTTPClientTransport(req.url, { authProvider: provider, requestInit: { headers: req.headers } });
    try {
      const first = transport();
      try {
        // With the provider the SDK meets the 401 itself: discovery, registration, then the redirect.
        return await req.connect(first);
      } catch (err) {
        if (!UnauthorizedError.isInstance(err) || !provider.authorizationUrl)
          throw new ApiError('failed', flowFailure(req.label, err, provider.discoveryState()));
      }
      const startedAt = new Date();
      const info: ClientAuthorization = {
        authorizationId: req.id,
        label: req.label,
        authorizationUrl: provider.authorizationUrl.href,
        startedAt: startedAt.toISOString(),
        expiresAt: new Date(startedAt.getTime() + req.timeoutMs).toISOString(),
      };
      this.waiting.set(req.id, { info, callback });
      this.onChanged(this.waiting.size);
      callback.expireAfter(
        req.timeoutMs,
        `Nobody finished authorizing ${req.label} in the browser within ${Math.round(req.timeoutMs / 1000)} s, so the console stopped waiting. ` +
          'Connect again, open the link under "Authorize in your browser", sign in and allow access (it must be done from this computer: the browser comes back to 127.0.0.1).',
      );
      let params: URLSearchParams;
      try {
        params = await callback.params;
      } catch (err) {
        throw new ApiError('failed', (err as Error).message);
      }
      try {
        await first.finishAuth(params);
      } catch (err) {
        throw new ApiError('failed', `The authorization server did not exchange the authorization code of ${req.label} for a token: ${brief(err)}`);
      }
      try {
        // The transport that met the 401 has been started and closed; a fresh one carries the token.
        return await req.connect(transport());
      } catch (err) {
        throw new ApiError('failed', `Authorized, but could not connect to ${req.label} with the token: ${brief(err)}`);
      }
    } finally {
      callback.close();
      if (this.waiting.delete(req.id)) this.onChanged(this.waiting.size);
    }
  }

  close(): void {
    for (const w of this.waiting.values()) w.callback.cancel('The Interceptor Console is shutting down.');
  }
}

/** Why the flow could not reach the browser step, naming the metadata that was missing where that is why. */
function flowFailure(label: string, err: unknown, discovery: OAuthDiscoveryState | undefined): string {
  const intro = `${label} asks for authorization (HTTP 401)`;
  if (discovery && !discovery.authorizationServerMetadata) {
    const resource = discovery.resourceMetadata ? '' : ', nor protected-resource metadata (/.well-known/oauth-protected-resource)';
    return (
      `${intro} but publishes no OAuth metadata the console can use: no authorization-server metadata at ${discovery.authorizationServerUrl} ` +
      `(/.well-known/oauth-authorization-server or /.well-known/openid-configuration)${resource}. ` +
      `The server must implement MCP authorization, or take a token you give as an "Authorization: Bearer …" header. (${brief(err)})`
    );
  }
  const issues = (err as { issues?: { path?: PropertyKey[]; message?: string }[] })?.issues;
  if (Array.isArray(issues)) {
    // The SDK checks the metadata documents with zod: name the fields, not a JSON dump of the issues.
    const fields = issues.map((i) => `${(i.path ?? []).map(String).join('.') || '(document)'}: ${i.message ?? 'invalid'}`).join('; ');
    return `${intro}, but its OAuth metadata (protected-resource or authorization-server) is not valid: ${fields}. The server's authorization setup must be fixed.`;
  }
  return `${intro}, but its OAuth authorization could not start: ${brief(err)}`;
}

/** The first line of an error, bounded: an SDK message may carry a whole HTML error page. */
function brief(err: unknown): string {
  const text = (err as Error)?.message ?? String(err);
  const line = text.split('\n')[0]!.trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
