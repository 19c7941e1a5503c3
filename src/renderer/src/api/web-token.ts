// Web mode's access token on the page side. The printed URL carries it in the fragment (`#token=…`), which
// browsers never send to any server nor in a Referer. The page takes it before anything else reads the
// address, removes it from the address bar (and so from history), and keeps it in sessionStorage: per origin
// (scheme, host AND port, unlike cookies), per tab, and kept across a reload of that tab. It is sent only
// explicitly: `Authorization: Bearer` on HTTP calls, the `bearer.` subprotocol on the WebSocket.
const STORAGE_KEY = 'ic-token';

/**
 * Moves a `#token=…` fragment into sessionStorage. Anything after it is kept as the route:
 * `#token=abc#/chain/demo` opens the Chain page.
 */
export function adoptTokenFromUrl(): void {
  const match = /^#token=([\w-]+)(#.*)?$/.exec(location.hash);
  if (!match) return;
  sessionStorage.setItem(STORAGE_KEY, match[1]!);
  history.replaceState(history.state, '', `${location.pathname}${location.search}${match[2] ?? ''}`);
}

export function webToken(): string | undefined {
  return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
}

/** Forgets a token the server refused (web mode restarted with a new one), so the page asks for the URL. */
export function forgetWebToken(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}

/** This page's CSP nonce for <style> elements: from the desktop bridge, or the meta tag web mode adds. */
export function styleNonce(): string {
  return window.interceptorConsole?.styleNonce ?? document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';
}
