// The renderer's Content-Security-Policy, one definition for both shells: web mode sends it as a response
// header with a fresh nonce per page, the Electron main process sends it as a response header too (and the
// built index.html carries the same policy as a meta tag for file:// loads, where Chromium may not apply
// response headers). Scripts only from the app itself; no inline script anywhere.
//
// Styles: the React components set styles through the CSSOM (element.style), which CSP does not govern, and
// the app's CSS is bundled into files; the one thing that writes a <style> element is CodeMirror (style-mod),
// and it takes a nonce (EditorView.cspNonce). So the headers carry a nonce instead of 'unsafe-inline': web mode a
// fresh one per page (in a meta tag of that page), the desktop shell one per run (passed to its preload). The
// meta tag in the static index.html cannot carry a secret nonce, so it keeps 'unsafe-inline' for styles: it only
// governs alone where no header applies (file:// loads, if Chromium ignores the header there); wherever a header
// applies, both policies must pass and the header's nonce rule decides. script-src is 'self' everywhere.
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
