// A gateway's control endpoint: how a console attaches to a gateway running in another process (headless,
// stdio or HTTP) to see its paused calls, decide them and set live breakpoints. Its own loopback listener
// (a stdio gateway has no other), behind the shared request guard (Host, Origin) and its own bearer token:
// holding it means being able to read and rewrite live calls, so no client token opens it.
//   GET  /breakpoints               → {gateway, config, live}
//   PUT  /breakpoints {live}        → the same, after replacing the live breakpoints
//   GET  /paused                    → PausedCall[]
//   POST /paused/<id> {decision, by?} → {done: true}; 404 when gone, 400 when refused (the pause stays)
//   GET  /events                    → text/event-stream of {type:'paused', pause} and {type:'resolved', id, record}
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { BreakpointSchema } from '../../../shared/config/breakpoints';
import { PAUSE_ACTOR_YOU, PauseDecisionSchema } from '../../../shared/trace/pauses';
import { RequestGuard } from '../../security/request-guard';
import type { GatewayBreakpoints } from './breakpoint-set';
import { PauseDecisionError } from './pause-registry';

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const DecideBody = z.strictObject({ decision: PauseDecisionSchema, by: z.string().trim().min(1).max(60).optional() });
const LiveBody = z.strictObject({ live: z.array(BreakpointSchema).max(200) });

export interface ControlOptions {
  host: string;
  port: number;
  token: string;
}

export class ControlServer {
  private server?: Server;
  private readonly guard: RequestGuard;
  private readonly streams = new Set<ServerResponse>();
  private unsubscribe?: () => void;

  constructor(
    private readonly gateway: string,
    private readonly breakpoints: GatewayBreakpoints,
    private readonly options: ControlOptions,
  ) {
    this.guard = new RequestGuard({ boundHost: options.host, tokens: new Map([[options.token, 'controller']]), tokenSource: 'control.token' });
  }

  get url(): string | undefined {
    const address = this.server?.address() as AddressInfo | null | undefined;
    return address ? `http://${this.options.host.includes(':') ? `[${this.options.host}]` : this.options.host}:${address.port}` : undefined;
  }

  async start(): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port, this.options.host, () => resolve());
    });
    this.server = server;
    const pauses = this.breakpoints.pauses;
    const onPaused = (pause: unknown) => this.broadcast({ type: 'paused', pause });
    const onResolved = (r: { id: string; record: unknown }) => this.broadcast({ type: 'resolved', id: r.id, record: r.record });
    pauses.on('paused', onPaused);
    pauses.on('resolved', onResolved);
    this.unsubscribe = () => {
      pauses.off('paused', onPaused);
      pauses.off('resolved', onResolved);
    };
    return this.url!;
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    for (const s of this.streams) s.end();
    this.streams.clear();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const verdict = this.guard.check(req);
    if (!verdict.ok) return send(res, verdict.status, { error: verdict.message });
    const path = new URL(req.url ?? '/', 'http://control').pathname;
    try {
      if (path === '/breakpoints' && req.method === 'GET') return send(res, 200, this.view());
      if (path === '/breakpoints' && req.method === 'PUT') {
        const body = LiveBody.safeParse(await readJson(req));
        if (!body.success) return send(res, 400, { error: issues(body.error) });
        this.breakpoints.setLive(body.data.live);
        return send(res, 200, this.view());
      }
      if (path === '/paused' && req.method === 'GET') return send(res, 200, this.breakpoints.pauses.list());
      const decide = /^\/paused\/([^/]+)$/.exec(path);
      if (decide && req.method === 'POST') {
        const body = DecideBody.safeParse(await readJson(req));
        if (!body.success) return send(res, 400, { error: issues(body.error) });
        this.breakpoints.pauses.decide(decodeURIComponent(decide[1]!), body.data.decision, body.data.by ?? PAUSE_ACTOR_YOU);
        return send(res, 200, { done: true });
      }
      if (path === '/events' && req.method === 'GET') return this.openStream(res);
      return send(res, 404, { error: `No control route ${req.method} ${path}; see GET /breakpoints, GET /paused, POST /paused/<id>, GET /events` });
    } catch (err) {
      if (err instanceof PauseDecisionError) return send(res, err.code === 'not-found' ? 404 : 400, { error: err.message });
      return send(res, 400, { error: (err as Error).message });
    }
  }

  private view() {
    return { gateway: this.gateway, config: this.breakpoints.configBreakpoints, live: this.breakpoints.liveBreakpoints };
  }

  private openStream(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    // Sends the headers now: a reader waits for them before it reads any event.
    res.write(': attached\n\n');
    // The open pauses first, so that a console attaching late sees what already waits.
    for (const pause of this.breakpoints.pauses.list()) res.write(`data: ${JSON.stringify({ type: 'paused', pause })}\n\n`);
    this.streams.add(res);
    res.on('close', () => this.streams.delete(res));
  }

  private broadcast(event: unknown): void {
    const line = `data: ${JSON.stringify(event)}\n\n`;
    for (const s of this.streams) s.write(line);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error(`Body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Error('The body is not JSON');
  }
}

function issues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
    .join('; ');
}
