// The trust check for IPC, kept free of runtime Electron imports so it can be unit-tested: only our
// own page (the bundled file, or the dev server in development), in the top frame, may call the API.
import type { WebFrameMain } from 'electron';

/** The URL prefix of our renderer: the dev server's origin in development, the bundled file otherwise. */
export function trustedPrefix(rendererFile: string, devServerUrl = process.env.ELECTRON_RENDERER_URL): string {
  if (devServerUrl) return `${new URL(devServerUrl).origin}/`;
  const path = rendererFile.replace(/\\/g, '/');
  return `file://${path.startsWith('/') ? '' : '/'}${path}`;
}

/** The fields of a frame the check reads (WebFrameMain in the app, plain objects in tests). */
export type FrameLike = Pick<WebFrameMain, 'url'> & { parent: unknown };

export function isTrustedFrame(frame: FrameLike | null | undefined, prefix: string): boolean {
  // Top frame only: an iframe (there should be none) never gets the API.
  if (!frame || frame.parent) return false;
  if (!frame.url.startsWith(prefix)) return false;
  // The dev server's whole origin is ours; a bundled file must match exactly (plus a hash or query),
  // never a sibling such as index.html.evil.html.
  if (prefix.endsWith('/')) return true;
  const rest = frame.url.slice(prefix.length);
  return rest === '' || rest.startsWith('#') || rest.startsWith('?');
}
