// The renderer's Content-Security-Policy, one definition for both shells: web mode sends it as a response
// header with a fresh nonce per page, the Electron main process sends it as a response header too (and the
// built index.html carries the same policy as a meta tag for file:// loads, where Chromium may not apply
// response headers). Scripts only from the app itself; no inline script anywhere.
//
// Styles: the React components set styles through the CSSOM (element.style), which CSP does not govern, and
// the app's CSS is bundled into files; the one thing that writes a <style> element is CodeMirror (style-mod),
// and it takes a nonce (EditorView.cspNonce). So where a per-page nonce exists (web mode) 'unsafe-inline' is
// gone. Electron's file:// page is a static file: a nonce written into it would be public and fixed, no better
// than 'unsafe-inline', so the desktop shell keeps 'unsafe-inline' for styles only (script-src stays 'self':
// an injected style cannot run code).
export interface CspOptions {
  /** Per-response nonce for <style> elements; without one, styles fall back to 'unsafe-inline'. */
  styleNonce?: string;
  /** Extra connect-src sources (web mode's WebSocket, the dev server's HMR socket). */
  connect?: string[];
}

export function contentSecurityPolicy(options: CspOptions = {}): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' ${options.styleNonce ? `'nonce-${options.styleNonce}'` : "'unsafe-inline'"}`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${["'self'", ...(options.connect ?? [])].join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
