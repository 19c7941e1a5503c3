// Request checks for web mode: every HTTP request and WebSocket upgrade must carry the per-run token
// and come from our own origin on a loopback host name. The Host check defeats DNS rebinding (a
// foreign name resolving to 127.0.0.1); the Origin check defeats cross-site requests and WebSocket
// hijacking; the token defeats everything else on the machine that did not see the printed URL.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_COOKIE = 'ic_token';
export const TOKEN_HEADER = 'x-ic-token';

export interface Verdict {
  ok: boolean;
  status?: number;
  reason?: string;
}

export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export function allowedOrigins(port: number): Set<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

/** Host must be one of ours; Origin, when the client sends one, too. */
export function checkHostAndOrigin(req: IncomingMessage, port: number, requireOrigin: boolean): Verdict {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!allowedHosts(port).has(host)) return { ok: false, status: 403, reason: `foreign Host header ${JSON.stringify(host)}` };
  const origin = req.headers.origin;
  if (origin === undefined) {
    return requireOrigin ? { ok: false, status: 403, reason: 'missing Origin header' } : { ok: true };
  }
  if (!allowedOrigins(port).has(origin.toLowerCase())) return { ok: false, status: 403, reason: `foreign Origin ${JSON.stringify(origin)}` };
  return { ok: true };
}

export function tokensEqual(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function cookieToken(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

export function securityHeaders(port: number): Record<string, string> {
  const ws = `ws://127.0.0.1:${port} ws://localhost:${port}`;
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self' data:",
      `connect-src 'self' ${ws}`,
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}
