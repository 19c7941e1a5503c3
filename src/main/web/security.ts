// Response headers of web mode. (Who may ask is decided by the shared request guard,
// src/main/security/request-guard.ts; this file only says how the answers are to be treated.)
import { contentSecurityPolicy } from '../../shared/security/csp';

export function securityHeaders(port: number, styleNonce?: string): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy({ styleNonce, connect: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`] }),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}
