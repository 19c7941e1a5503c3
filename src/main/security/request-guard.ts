// The one Host / Origin / token check in front of every listener of this app: web mode, a gateway's HTTP
// listener and the interceptor host's HTTP server. One behaviour everywhere:
//
// - Host: its host name must be a loopback name (localhost, 127.0.0.1, [::1]), the bound address, or one the
//   listener was configured to accept; ANY PORT. The Host check exists for DNS rebinding, where the attacker
//   controls the name, never the port: a browser always names the port it connected to, so a port other than
//   ours only ever means a forwarder in between (ssh -L, a container port mapping), which must keep working.
//   A loopback name says "this machine", so it is believed only from a loopback peer (the socket's remote
//   address): on a listener bound beyond loopback, a remote client sending `Host: localhost` is not local.
//   A loopback name listed in the configured host names is accepted from any peer (a container's port
//   mapping connects from the bridge's address).
// - Origin: absent (CLI, MCP clients, anything that is not a browser page) or EXACTLY the request's own
//   origin, `http://<Host>` (port included), or one the listener was configured to accept. Not "any loopback
//   port": a page served by another program on 127.0.0.1 is another origin (another app, maybe hostile), and
//   browsers would otherwise let it drive our API from the user's browser.
// - Token: when the listener has tokens, the request carries one in `Authorization: Bearer <token>`; a
//   WebSocket upgrade (where a browser cannot set headers) may carry it as the subprotocol `bearer.<token>`.
//   Never in the URL (URLs end up in logs and history) and never in a cookie (browsers send cookies to every
//   port of a host). Compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WS_TOKEN_PROTOCOL_PREFIX } from '../../shared/api/web-auth';
import { isLoopbackAddress } from '../../shared/config/listen-exposure';

export const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

export interface RequestGuardOptions {
  /** Address the listener is bound to; accepted as a Host name unless it is a wildcard (0.0.0.0, ::). */
  boundHost?: string;
  /** Extra Host names (no port) to accept, e.g. the name of a reverse proxy. */
  allowedHostnames?: readonly string[];
  /** Extra exact origins to accept, e.g. `http://localhost:6274` for a browser-based MCP client. */
  allowedOrigins?: readonly string[];
  /** Token → principal. Absent or null: no token is required (a gateway without `listen.tokens`). */
  tokens?: ReadonlyMap<string, string> | null;
  /** Said in the 401 message: where the tokens come from, e.g. "listen.tokens". */
  tokenSource?: string;
}

export type GuardDecision = { ok: true; principal: string | undefined } | { ok: false; status: 401 | 403; message: string };

export class RequestGuard {
  private readonly hostnames: Set<string>;
  /** Names accepted from any peer: the bound address and the configured ones (not the built-in loopback names). */
  private readonly remoteHostnames: Set<string>;
  private readonly origins: Set<string>;
  private readonly digests: { digest: Buffer; principal: string }[] | null;

  constructor(private readonly options: RequestGuardOptions = {}) {
    const names = [...LOOPBACK_HOSTNAMES, ...(options.allowedHostnames ?? [])];
    if (options.boundHost && options.boundHost !== '0.0.0.0' && options.boundHost !== '::') names.push(options.boundHost);
    this.hostnames = new Set(names.map(normalizeHostname));
    this.remoteHostnames = new Set(names.slice(LOOPBACK_HOSTNAMES.length).map(normalizeHostname));
    this.origins = new Set((options.allowedOrigins ?? []).map((o) => originOf(o) ?? o.toLowerCase()));
    this.digests = options.tokens ? [...options.tokens].map(([token, principal]) => ({ digest: sha256(token), principal })) : null;
  }

  get requiresToken(): boolean {
    return this.digests !== null;
  }

  /** Host and Origin, then the token: the first failure decides (403 before 401). */
  check(req: IncomingMessage): GuardDecision {
    const place = this.checkHostAndOrigin(req);
    return place.ok ? this.checkToken(req) : place;
  }

  /** DNS rebinding and cross-origin requests: 403. Enough on its own for content that holds no secret. */
  checkHostAndOrigin(req: IncomingMessage): GuardDecision {
    const host = req.headers.host;
    if (!host) return { ok: false, status: 403, message: 'Refused: missing Host header' };
    if (!this.hostnames.has(hostnameOf(host))) {
      return {
        ok: false,
        status: 403,
        message: `Refused: Host header ${JSON.stringify(host)} is not an allowed host name (DNS-rebinding protection); add it to the listener's allowed hosts if it really names this listener`,
      };
    }
    if (!this.remoteHostnames.has(hostnameOf(host)) && !isLoopbackAddress(req.socket?.remoteAddress)) {
      return {
        ok: false,
        status: 403,
        message: `Refused: Host header ${JSON.stringify(host)} names this machine, but the request comes from ${req.socket?.remoteAddress ?? 'an unknown address'}; a remote client must name the listener by its address or a name in its allowed hosts`,
      };
    }
    const origin = req.headers.origin;
    if (origin === undefined) return { ok: true, principal: undefined };
    const given = originOf(origin);
    if (given !== undefined && (given === originOf(`http://${host}`) || this.origins.has(given))) return { ok: true, principal: undefined };
    return {
      ok: false,
      status: 403,
      message: `Refused: Origin ${JSON.stringify(origin)} is not this listener's own origin (another site or another local port); add it to the listener's allowed origins to permit it`,
    };
  }

  /** 401 without a known token, when the listener has tokens. */
  checkToken(req: IncomingMessage): GuardDecision {
    if (!this.digests) return { ok: true, principal: undefined };
    const token = presentedToken(req);
    if (token === undefined) {
      const where = this.options.tokenSource ? ` (tokens are configured in ${this.options.tokenSource})` : '';
      return { ok: false, status: 401, message: `Unauthorized: send "Authorization: Bearer <token>"${where}` };
    }
    const digest = sha256(token);
    let principal: string | undefined;
    // Every entry is compared, so the time taken says nothing about which token (or how much of one) matched.
    for (const entry of this.digests) if (timingSafeEqual(entry.digest, digest)) principal = entry.principal;
    return principal === undefined ? { ok: false, status: 401, message: 'Unauthorized: unknown bearer token' } : { ok: true, principal };
  }
}

/** The token a request presents: `Authorization: Bearer`, or for a WebSocket upgrade the `bearer.` subprotocol. */
export function presentedToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(.+?)\s*$/i.exec(header) : null;
  if (match) return match[1];
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return undefined;
  const protocols = req.headers['sec-websocket-protocol'];
  if (typeof protocols !== 'string') return undefined;
  for (const p of protocols.split(',')) {
    const name = p.trim();
    if (name.startsWith(WS_TOKEN_PROTOCOL_PREFIX) && name.length > WS_TOKEN_PROTOCOL_PREFIX.length) return name.slice(WS_TOKEN_PROTOCOL_PREFIX.length);
  }
  return undefined;
}

/** `127.0.0.1:8080` → `127.0.0.1`; `[::1]:8080` → `[::1]`. */
export function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

function normalizeHostname(name: string): string {
  const h = name.trim().toLowerCase();
  return h.includes(':') && !h.startsWith('[') ? `[${h}]` : h;
}

/** The serialized origin of a URL (`http://localhost:80` → `http://localhost`), or undefined if it is none. */
function originOf(value: string): string | undefined {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return u.origin;
  } catch {
    return undefined;
  }
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
