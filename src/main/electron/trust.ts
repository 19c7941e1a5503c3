// Which pages and frames are the app's own, kept free of runtime Electron imports so it can be unit-tested:
// only our page (the bundled file, or the dev server in development), in the top frame of one of our
// windows, may call the API or be navigated to.
import type { WebFrameMain } from 'electron';

/**
 * The URL of our renderer: the dev server's origin (ending in `/`) in development, else the bundled file as
 * Chromium names it (percent-encoded: an install path such as `/opt/Interceptor Console/` has a space).
 */
export function trustedPrefix(rendererFile: string, devServerUrl = process.env.ELECTRON_RENDERER_URL): string {
  if (devServerUrl) return `${new URL(devServerUrl).origin}/`;
  const path = rendererFile.replace(/\\/g, '/');
  return new URL(`file://${path.startsWith('/') ? '' : '/'}${path}`).href;
}

/**
 * Whether `url` is our page: in development any URL of the dev server's origin; otherwise exactly the bundled
 * file (a route in the hash or a query is fine), never a sibling such as `index.html.evil` or another file.
 */
export function isOwnPageUrl(url: string, prefix: string): boolean {
  let candidate: URL;
  let own: URL;
  try {
    candidate = new URL(url);
    own = new URL(prefix);
  } catch {
    return false;
  }
  if (own.protocol === 'http:' || own.protocol === 'https:') return candidate.origin === own.origin;
  return candidate.protocol === 'file:' && candidate.host === own.host && candidate.pathname === own.pathname;
}

/** The fields of a frame the check reads (WebFrameMain in the app, plain objects in tests). */
export type FrameLike = Pick<WebFrameMain, 'url'> & { parent: unknown };

export function isTrustedFrame(frame: FrameLike | null | undefined, prefix: string): boolean {
  // Top frame only: an iframe (there should be none) never gets the API.
  if (!frame || frame.parent) return false;
  return isOwnPageUrl(frame.url, prefix);
}

/**
 * Whether a link the page opens goes to the system browser: https anywhere (documentation, an OAuth
 * authorization page), and plain http only on this machine (an authorization server under development on
 * 127.0.0.1 or localhost). Never file:, custom schemes or anything else that could start a program.
 */
export function opensInSystemBrowser(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol === 'https:') return true;
  return u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
}
