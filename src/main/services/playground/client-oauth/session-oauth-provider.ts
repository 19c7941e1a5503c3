// The SDK's OAuthClientProvider for one client session: the SDK runs discovery (protected-resource and
// authorization-server metadata), dynamic client registration, PKCE and the code exchange; this keeps what
// it hands over (registration, verifier, discovery, tokens) in memory for the session only, never on disk,
// and passes the authorization URL on to whoever shows it to the user.
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

export class SessionOAuthProvider implements OAuthClientProvider {
  private client?: StoredOAuthClientInformation;
  private saved?: StoredOAuthTokens;
  private verifier?: string;
  private discovery?: OAuthDiscoveryState;
  /** Set when the SDK asks to send the user to the authorization server. */
  authorizationUrl?: URL;

  constructor(
    readonly redirectUrl: string,
    private readonly stateValue: string,
    private readonly clientName: string,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    // A public client (no secret: nothing on a desktop can keep one), authorization code with PKCE only.
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    return this.stateValue;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.client;
  }

  saveClientInformation(info: StoredOAuthClientInformation): void {
    this.client = info;
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE code verifier was saved for this authorization');
    return this.verifier;
  }

  // Kept so the SDK can check, when the code comes back, that it is exchanged with the authorization
  // server it was requested from (SEP-2352), and so a failure can say which metadata was missing.
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }
}
