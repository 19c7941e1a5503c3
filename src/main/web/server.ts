// Web mode: the renderer and the app API over HTTP + WebSocket on 127.0.0.1, driven by the same
// dispatcher as the Electron IPC adapter. Every request passes the shared Host/Origin guard; every API call
// and WebSocket upgrade also needs the run's token, which the page holds in memory (from the URL fragment,
// which browsers never send to a server) and presents as `Authorization: Bearer` or the `bearer.` WebSocket
// subprotocol. No cookie: browsers send cookies to every port of 127.0.0.1, i.e. to other local servers.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Dispatcher } from '../api/dispatcher';
import type { ApiEvent } from '../../shared/api/events';
import type { Logger } from '../services/environment';
import { RequestGuard } from '../security/request-guard';
import { securityHeaders } from './security';
import { WS_PROTOCOL } from '../../shared/api/web-auth';
import { readStatic } from './static-files';

export interface WebCore {
  dispatcher: Dispatcher;
  onEvent(listener: (event: ApiEvent) => void): () => void;
}

export interface WebServerOptions {
  core: WebCore;
  rendererDir: string;
  logger: Logger;
  port?: number;
  /** Defaults to a fresh random token; tests may pin one. */
  token?: string;
}

export interface WebServer {
  url: string;
  /** The URL to open: carries the token in the fragment (`#token=…`), which the page takes and removes. */
  openUrl: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** What is still read (and thrown away) after the limit, so the client gets to read the 413 instead of a reset. */
const DISCARD_AFTER_LIMIT_BYTES = 64 * 1024 * 1024;

/** A body over MAX_BODY_BYTES: answered 413 with a JSON error, never a dropped connection. */
class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const { core, logger } = options;
  let port = 0;
  const guard = new RequestGuard({ tokens: new Map([[token, 'console']]) });
  // The page offers [WS_PROTOCOL, `bearer.<token>`]; the answer names WS_PROTOCOL only, never the token.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_BODY_BYTES,
    handleProtocols: (offered) => (offered.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });

  const server = createServer((req, res) => {
    handleHttp(req, res).catch((err: unknown) => {
      logger.error('web request failed', err);
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'Internal error');
      else res.destroy();
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const place = guard.checkHostAndOrigin(req);
    if (!place.ok) return send(res, place.status, 'text/plain; charset=utf-8', place.message);
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);

    if (url.pathname.startsWith('/api/')) {
      // Every procedure (some start processes or write files) needs the token, sent explicitly by the page.
      const auth = guard.checkToken(req);
      if (!auth.ok) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="interceptor-console"');
        return sendJson(res, 401, { ok: false, error: { code: 'unavailable', message: `${auth.message}: open the URL that web mode printed` } });
      }
      const match = /^\/api\/call\/([\w.]+)$/.exec(url.pathname);
      if (!match) return sendJson(res, 404, { ok: false, error: { code: 'unknown_procedure', message: `No API route ${url.pathname}` } });
      if (req.method !== 'POST') return sendJson(res, 405, { ok: false, error: { code: 'invalid_input', message: 'Use POST.' } });
      let input: unknown;
      try {
        const body = await readBody(req);
        input = body.length ? JSON.parse(body) : undefined;
      } catch (err) {
        if (err instanceof BodyTooLarge) {
          // The rest of the body is not wanted: the connection closes once the answer is out.
          res.setHeader('Connection', 'close');
          const message = `Request body is larger than the web API's limit of ${MAX_BODY_BYTES / 1048576} MB; send less at once (for a large history import, use \`interceptor-console import\`).`;
          return sendJson(res, 413, { ok: false, error: { code: 'invalid_input', message } });
        }
        return sendJson(res, 400, { ok: false, error: { code: 'invalid_input', message: `Request body is not valid JSON: ${(err as Error).message}` } });
      }
      return sendJson(res, 200, await core.dispatcher.dispatch(match[1], input));
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed');
    // The page and its assets hold no secret: served without the token (the page asks for it if it has none).
    const styleNonce = randomBytes(16).toString('base64');
    const file = readStatic(options.rendererDir, url.pathname, styleNonce);
    // Built assets are content-hashed: the browser may keep them (and V8 its compiled code), so the console
    // opens fast the second time. The page itself carries a per-response nonce and stays no-store.
    const immutable: Record<string, string> =
      file.status === 200 && url.pathname.startsWith('/assets/') ? { 'Cache-Control': 'private, max-age=31536000, immutable' } : {};
    send(res, file.status, file.type, req.method === 'HEAD' ? '' : file.body, immutable, styleNonce);
  }

  function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}, styleNonce?: string): void {
    res.writeHead(status, { ...securityHeaders(port, styleNonce), 'Content-Type': type, ...headers });
    res.end(body);
  }

  function sendJson(res: ServerResponse, status: number, value: unknown): void {
    send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refuse = (status: number, reason: string) => {
      socket.end(
        `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Forbidden'}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${reason}\r\n`,
      );
    };
    const place = guard.checkHostAndOrigin(req);
    if (!place.ok) return refuse(place.status, place.message);
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname !== '/api/ws') return refuse(404, 'Not found: no WebSocket here');
    const auth = guard.checkToken(req);
    if (!auth.ok) return refuse(auth.status, auth.message);
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws));
  });

  function serveSocket(ws: WebSocket): void {
    const unsubscribe = core.onEvent((event) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event }));
    });
    ws.on('close', unsubscribe);
    ws.on('error', (err) => logger.debug('websocket error', err));
    ws.on('message', (data) => {
      let msg: { id?: unknown; procedure?: unknown; input?: unknown };
      try {
        msg = JSON.parse(data.toString()) as typeof msg;
      } catch {
        ws.send(JSON.stringify({ id: null, result: { ok: false, error: { code: 'invalid_input', message: 'Message is not valid JSON.' } } }));
        return;
      }
      const id = typeof msg?.id === 'number' || typeof msg?.id === 'string' ? msg.id : null;
      void core.dispatcher.dispatch(msg?.procedure, msg?.input).then((result) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id, result }));
      });
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}/`;

  return {
    url,
    openUrl: `${url}#token=${token}`,
    port,
    token,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The body as text, up to MAX_BODY_BYTES. A larger one (declared, or found while reading) rejects with
 * BodyTooLarge once the rest has been read and dropped (up to a bound): a client still uploading when the
 * 413 came would get a reset instead of the answer (destroying the socket mid-upload did just that).
 */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const refuse = () => reject(new BodyTooLarge(`body larger than ${MAX_BODY_BYTES} bytes`));
    const tooLarge = () => {
      refused = true;
      chunks.length = 0;
      req.removeAllListeners('data');
      let discarded = 0;
      req.on('data', (chunk: Buffer) => {
        discarded += chunk.length;
        if (discarded <= DISCARD_AFTER_LIMIT_BYTES) return;
        req.removeAllListeners('data');
        req.pause();
        refuse(); // past the bound: answered now, and the connection closes (the client may see a reset)
      });
      req.resume();
    };
    req.on('end', () => (refused ? refuse() : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
      if (declared > MAX_BODY_BYTES + DISCARD_AFTER_LIMIT_BYTES) {
        refused = true;
        return refuse();
      }
      return tooLarge();
    }
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return tooLarge();
      chunks.push(chunk);
    });
  });
}
