// The redirect target of one OAuth authorization (RFC 8252 §7.3, loopback redirect): an HTTP listener on
// 127.0.0.1 only, on a free port, that takes exactly one GET /oauth/callback. It checks the `state` the
// console sent (a callback with another state did not come from this authorization, or was altered:
// nothing is exchanged), answers the browser with a short page, and closes. It also closes when nobody
// comes back in time, or when the flow is abandoned.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CALLBACK_PATH = '/oauth/callback';

/** Why the callback did not give a code; `message` is for the user and says what to do. */
export class AuthorizationCallbackError extends Error {
  constructor(
    readonly reason: 'state_mismatch' | 'denied' | 'no_code' | 'timeout' | 'cancelled',
    message: string,
  ) {
    super(message);
  }
}

export class LoopbackCallback {
  /** Sent as the authorization request's `state`; only a callback carrying it back is accepted. */
  readonly state = randomBytes(32).toString('base64url');
  private settled = false;
  private timer?: NodeJS.Timeout;
  private resolveParams!: (params: URLSearchParams) => void;
  private rejectParams!: (err: Error) => void;
  /** The callback's query (code, state, iss), once a callback with the right state arrived. */
  readonly params: Promise<URLSearchParams>;

  private constructor(private readonly server: Server) {
    this.params = new Promise<URLSearchParams>((resolve, reject) => {
      this.resolveParams = resolve;
      this.rejectParams = reject;
    });
    // Nobody may be awaiting yet (the flow awaits once the browser has the URL): no unhandled rejection.
    this.params.catch(() => undefined);
  }

  /** Binds 127.0.0.1 on a free port. Never another interface: the code must not be reachable from the network. */
  static async open(): Promise<LoopbackCallback> {
    const server = createServer((req, res) => callback.handle(req, res));
    const callback = new LoopbackCallback(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return callback;
  }

  /** The redirect_uri registered with the authorization server and sent with the authorization request. */
  get redirectUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${CALLBACK_PATH}`;
  }

  /** Fails the wait with `timeout` after `ms` unless a callback came first. */
  expireAfter(ms: number, message: string): void {
    this.timer = setTimeout(() => this.fail(new AuthorizationCallbackError('timeout', message)), ms);
    this.timer.unref();
  }

  /** Abandons the wait (the user cancelled, or the flow failed before the browser was needed). */
  cancel(message: string): void {
    this.fail(new AuthorizationCallbackError('cancelled', message));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // Anything else a browser asks for (a favicon) is not the callback and does not end the flow.
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH || this.settled) {
      page(res, 404, 'Not found', 'This address only takes the authorization callback of Interceptor Console.');
      return;
    }
    const params = url.searchParams;
    if (!sameState(params.get('state'), this.state)) {
      page(res, 400, 'Authorization refused', 'The state in this callback is not the one Interceptor Console sent. Nothing was exchanged; connect again.');
      this.fail(
        new AuthorizationCallbackError(
          'state_mismatch',
          'The authorization callback carried a different state than the console sent, so it did not come from this authorization (or it was altered). No code was exchanged; connect again and finish authorization in the browser that opens.',
        ),
      );
      return;
    }
    const error = params.get('error');
    if (error) {
      // Only the error code is repeated: the description is the authorization server's free text.
      page(res, 400, 'Authorization not granted', `The authorization server answered "${error}". Return to Interceptor Console.`);
      this.fail(new AuthorizationCallbackError('denied', `The authorization server did not grant access (error "${error}"); connect again to retry.`));
      return;
    }
    if (!params.get('code')) {
      page(res, 400, 'Authorization incomplete', 'The callback carried no authorization code. Return to Interceptor Console.');
      this.fail(new AuthorizationCallbackError('no_code', 'The authorization callback carried no code; connect again.'));
      return;
    }
    page(res, 200, 'Authorized', 'Interceptor Console is finishing the connection. You can close this tab.');
    this.settle();
    this.resolveParams(params);
  }

  private fail(err: AuthorizationCallbackError): void {
    if (this.settled) return;
    this.settle();
    this.rejectParams(err);
  }

  /** One callback only: the listener closes once the flow has its answer (after the page is sent). */
  private settle(): void {
    this.settled = true;
    clearTimeout(this.timer);
    this.server.close();
    this.server.closeIdleConnections();
  }

  /** Closes the listener whatever happened; safe to call twice. */
  close(): void {
    this.fail(new AuthorizationCallbackError('cancelled', 'The authorization was abandoned.'));
  }
}

function sameState(got: string | null, expected: string): boolean {
  if (got === null) return false;
  const a = Buffer.from(got);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function page(res: ServerResponse, status: number, title: string, text: string): void {
  const body = `<!doctype html><meta charset="utf-8"><title>${title}</title><h1>${title}</h1><p>${text}</p>`;
  // Connection: close, so no kept-alive socket outlives the listener once the flow has its answer.
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'",
    Connection: 'close',
  });
  res.end(body);
}
