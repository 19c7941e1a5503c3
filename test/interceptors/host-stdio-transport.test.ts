// The host's stdio transport ([path-speed]): once initialize has negotiated a pre-2026 version it answers
// interceptor/invoke itself. Every answer must be what the SDK's own stdio path gives for the same line
// (results, each error, cancellation, stdin's end), the rest of the protocol must still reach the SDK, and
// answers to invokes that arrive together must leave in one write.
import { PassThrough } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { InterceptorHost, serveHostOverStdio } from '../../src/main/interceptors/host';
import { MAX_BUFFERED_BYTES } from '../../src/main/interceptors/line-reader';
import { waitFor } from '../gateway/helpers';

type Message = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

/** One side of a stdio connection: lines in, parsed lines out, and every write the server made. */
class Peer {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly received: Message[] = [];
  writes = 0;
  private text = '';

  constructor() {
    const write = this.stdout.write.bind(this.stdout) as (chunk: unknown, ...rest: unknown[]) => boolean;
    this.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
      this.writes++;
      return write(chunk, ...rest);
    }) as typeof this.stdout.write;
    this.stdout.setEncoding('utf8');
    this.stdout.on('data', (t: string) => {
      this.text += t;
      let nl;
      while ((nl = this.text.indexOf('\n')) >= 0) {
        this.received.push(JSON.parse(this.text.slice(0, nl)) as Message);
        this.text = this.text.slice(nl + 1);
      }
    });
  }

  send(...messages: unknown[]): void {
    this.stdin.write(messages.map((m) => `${typeof m === 'string' ? m : JSON.stringify(m)}\n`).join(''));
  }

  async answer(id: unknown, timeoutMs = 5_000): Promise<Message> {
    await waitFor(() => this.received.some((m) => m.id === id), timeoutMs, `an answer to request ${String(id)}`);
    return this.received.find((m) => m.id === id)!;
  }

  async initialize(protocolVersion = '2025-11-25'): Promise<void> {
    this.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    await this.answer('init');
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c().catch(() => undefined)));
});

let seen: { cancelled: unknown[] } = { cancelled: [] };

function testHost(): InterceptorHost {
  seen = { cancelled: [] };
  const host = new InterceptorHost({ serverInfo: { name: 'fast', version: '1' } });
  host.registerValidator({ name: 'allow', events: ['tools/call'], phase: 'request', handler: () => true });
  host.registerValidator({
    name: 'deny',
    phase: 'request',
    handler: () => ({ valid: false, severity: 'error', messages: [{ message: 'no', severity: 'error' }] }),
  });
  host.registerMutator({
    name: 'upper',
    phase: 'request',
    handler: (p) => ({ modified: true, payload: { ...(p as object), upper: true } }),
  });
  host.registerSink({ name: 'log', phase: 'both', handler: async () => ({ recorded: true }) });
  host.registerValidator({
    name: 'strict',
    phase: 'request',
    configSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    handler: () => true,
  });
  host.registerValidator({
    name: 'throws',
    phase: 'request',
    handler: () => {
      throw new Error('boom');
    },
  });
  host.registerValidator({ name: 'malformed', phase: 'request', handler: () => 'yes' as never });
  host.registerValidator({
    name: 'waits',
    phase: 'request',
    handler: (_p, { signal }) =>
      new Promise<boolean>((resolve) => {
        signal.addEventListener('abort', () => {
          seen.cancelled.push(signal.reason);
          resolve(true);
        });
      }),
  });
  return host;
}

async function fastPeer(host = testHost()): Promise<Peer> {
  const peer = new Peer();
  const serving = await serveHostOverStdio(host, { stdin: peer.stdin, stdout: peer.stdout });
  closers.push(() => serving.close());
  await peer.initialize();
  return peer;
}

/** The same host behind the SDK's own stdio transport: what every answer must equal. */
async function sdkPeer(host = testHost()): Promise<Peer> {
  const peer = new Peer();
  const server = host.createServer();
  await server.connect(new StdioServerTransport(peer.stdin, peer.stdout));
  closers.push(() => server.close());
  await peer.initialize();
  return peer;
}

const invoke = (id: unknown, params: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'interceptor/invoke', params });
const call = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  event: 'tools/call',
  phase: 'request',
  payload: { name: 'echo', arguments: { message: 'hi' } },
  context: { principal: { type: 'anonymous' }, traceId: 't1', timestamp: '2026-12-05T00:00:00.000Z' },
  ...extra,
});

const cases: Record<string, Record<string, unknown>> = {
  'a validation result': call('allow'),
  'a blocking validation': call('deny'),
  'a mutation': call('upper'),
  'an async sink': call('log', { phase: 'response' }),
  'an unknown interceptor': call('nope'),
  'params the schema refuses': call('allow', { phase: 'both' }),
  'a config the configSchema refuses': call('strict', { config: { n: 'x' } }),
  'a handler that throws': call('throws'),
  'a malformed result': call('malformed'),
  'a host-side timeout': call('waits', { timeoutMs: 30 }),
  'params with _meta (left to the SDK)': call('allow', { _meta: { progressToken: 3 } }),
};

/** An answer without what varies from run to run. */
function stable(m: Message): unknown {
  if (!m.result) return m;
  const { durationMs, ...rest } = m.result;
  expect(typeof durationMs).toBe('number');
  return { ...m, result: rest };
}

describe('HostStdioTransport', () => {
  it('answers every kind of invoke exactly as the SDK stdio path does', async () => {
    const fast = await fastPeer();
    const sdk = await sdkPeer();
    let id = 0;
    for (const [label, params] of Object.entries(cases)) {
      id++;
      fast.send(invoke(id, params));
      sdk.send(invoke(id, params));
      const [a, b] = await Promise.all([fast.answer(id), sdk.answer(id)]);
      expect(stable(a), label).toEqual(stable(b));
    }
    // The error bodies are the ones a user reads: spot-check two of them.
    expect(fast.received.find((m) => m.id === 5)?.error).toMatchObject({ code: -32602, message: "Interceptor 'nope' not found" });
    expect(fast.received.find((m) => m.id === 10)?.error).toMatchObject({ code: -32000, data: { interceptor: 'waits', timeoutMs: 30 } });
  });

  it('answers invokes that arrive together in one write', async () => {
    const peer = await fastPeer();
    const before = peer.writes;
    peer.send(invoke(1, call('allow')), invoke(2, call('deny')), invoke(3, call('upper')), invoke(4, call('allow')));
    await Promise.all([1, 2, 3, 4].map((id) => peer.answer(id)));
    expect(peer.writes - before).toBe(1);
  });

  it('a cancelled invoke has its handler aborted with the reason and is never answered', async () => {
    const peer = await fastPeer();
    peer.send(invoke('c1', call('waits')));
    await new Promise((r) => setTimeout(r, 20));
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1', reason: 'user stopped it' } });
    await waitFor(() => seen.cancelled.length === 1, 5_000, 'the handler to see the cancellation');
    expect(seen.cancelled[0]).toBe('user stopped it');
    // The connection goes on; the cancelled call's answer never comes.
    peer.send({ jsonrpc: '2.0', id: 'after', method: 'ping' }, invoke('after2', call('allow')));
    await peer.answer('after');
    await peer.answer('after2');
    await new Promise((r) => setTimeout(r, 50));
    expect(peer.received.some((m) => m.id === 'c1')).toBe(false);
  });

  it("stdin's end aborts calls in flight without answering them and closes", async () => {
    const host = testHost();
    const peer = new Peer();
    const serving = await serveHostOverStdio(host, { stdin: peer.stdin, stdout: peer.stdout });
    await peer.initialize();
    peer.send(invoke('w', call('waits')));
    await new Promise((r) => setTimeout(r, 20));
    peer.stdin.end();
    await serving.closed;
    await waitFor(() => seen.cancelled.length === 1, 5_000, 'the running handler to be aborted');
    await new Promise((r) => setTimeout(r, 30));
    expect(peer.received.some((m) => m.id === 'w')).toBe(false);
  });

  it('reads lines split across chunks, CRLF endings and blank lines, and skips a line that is not JSON', async () => {
    const peer = await fastPeer();
    const line = JSON.stringify(invoke('split', call('allow')));
    peer.stdin.write(line.slice(0, 17));
    peer.stdin.write(line.slice(17, 60));
    peer.stdin.write(`${line.slice(60)}\r\n\n   \nnot json\n`);
    peer.send(invoke('next', call('deny')));
    expect((await peer.answer('split')).result).toMatchObject({ interceptor: 'allow', valid: true });
    expect((await peer.answer('next')).result).toMatchObject({ interceptor: 'deny', valid: false });
  });

  it('leaves invokes before initialize, and the rest of the protocol always, to the SDK', async () => {
    const host = testHost();
    const peer = new Peer();
    const serving = await serveHostOverStdio(host, { stdin: peer.stdin, stdout: peer.stdout });
    closers.push(() => serving.close());
    peer.send(
      invoke('early', call('upper')),
      { jsonrpc: '2.0', id: 'l', method: 'interceptors/list', params: {} },
      { jsonrpc: '2.0', id: 'p', method: 'ping' },
    );
    expect((await peer.answer('early')).result).toMatchObject({ interceptor: 'upper', modified: true });
    expect(((await peer.answer('l')).result?.interceptors as unknown[]).length).toBe(8);
    expect((await peer.answer('p')).result).toEqual({});
    await peer.initialize();
    peer.send({ jsonrpc: '2.0', id: 'l2', method: 'interceptors/list', params: { event: 'tools/call' } });
    expect(((await peer.answer('l2')).result?.interceptors as { name: string }[]).map((d) => d.name)).toContain('allow');
  });

  it('closes with an error when an unfinished line grows past the buffer cap', async () => {
    const host = testHost();
    const peer = new Peer();
    const serving = await serveHostOverStdio(host, { stdin: peer.stdin, stdout: peer.stdout });
    await peer.initialize();
    peer.stdin.write(Buffer.alloc(MAX_BUFFERED_BYTES + 1, 0x20));
    await serving.closed;
  });
});
