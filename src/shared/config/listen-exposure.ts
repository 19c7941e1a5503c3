// Who can reach an HTTP listener. A host other than a loopback address (0.0.0.0, ::, a LAN address, a
// host name) accepts connections from other machines; without `listen.tokens` every one of them may then
// use the backend, its tools and whatever credentials it holds. That is refused unless the config says
// so explicitly (`listen.allowRemoteWithoutToken`), and said in the log when it does.
import type { HttpListenConfig } from './schema';

/** 127.0.0.0/8, ::1 (bracketed or not, IPv4-mapped too) and `localhost`: only this machine can connect. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (a === 'localhost' || a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  return /^127(\.\d{1,3}){3}$/.test(v4);
}

export type ListenExposure = { kind: 'loopback' | 'token' } | { kind: 'refused'; message: string } | { kind: 'open'; warning: string };

/** Whether this listener may start, and what to say about it. */
export function listenExposure(listen: Pick<HttpListenConfig, 'host' | 'port' | 'tokens' | 'allowRemoteWithoutToken'>): ListenExposure {
  if (isLoopbackAddress(listen.host)) return { kind: 'loopback' };
  if (Object.keys(listen.tokens ?? {}).length > 0) return { kind: 'token' };
  const where = `listen.host "${listen.host}"`;
  if (listen.allowRemoteWithoutToken !== true) {
    return {
      kind: 'refused',
      message:
        `refusing to listen on ${listen.host}:${listen.port} without a token: ${where} accepts connections from other machines, and without ` +
        'listen.tokens anyone who reaches the port could use the backend. Set listen.tokens (a bearer token per user), or bind "127.0.0.1", ' +
        'or, if every machine that can reach it may use it, set listen.allowRemoteWithoutToken: true',
    };
  }
  return {
    kind: 'open',
    warning:
      `warning: ${where} without listen.tokens (listen.allowRemoteWithoutToken): any machine that reaches port ${listen.port} can use the backend ` +
      'without a token (a remote client names the listener by its bound address or a name in listen.allowedHosts)',
  };
}
