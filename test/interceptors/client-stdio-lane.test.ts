// The invoker's stdio transport ([path-speed]): after a pre-2026 handshake, invokes go by its lane, past
// the SDK's per-request path. Against a real child process: answers and every failure kind come back as
// they did through the SDK, cancellation reaches the server, the message tap still sees every message
// both ways, SDK requests (ping, list) share the connection, and invokes started together leave in one
// write (one chunk on the server's stdin), with a detached sink's invoke held until such a write.
import { getEventListeners } from 'node:events';
import { fileURLToPath } from 'node:url';
import { SdkError } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InterceptorServerClient } from '../../src/main/interceptors/client';
import { BACKGROUND_HOLD_MS, InterceptorStdioTransport } from '../../src/main/interceptors/client/stdio-transport';
import type { WireTap } from '../../src/main/interceptors/client/wire-tap';
import { InvokeError } from '../../src/main/interceptors/server-handle';
import { waitFor } from '../gateway/helpers';

const fixture = fileURLToPath(new URL('./fixtures/lane-host.ts', import.meta.url));
const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => undefined)));
});

function laneClient(wire?: WireTap, stderr?: string[]): InterceptorServerClient {
  const c = new InterceptorServerClient({
    name: 'lane',
    connection: { transport: 'stdio', command: process.execPath, args: ['--import', 'tsx', fixture] },
    autoReconnect: false,
    ...(wire ? { wire } : {}),
    ...(stderr ? { onStderr: (t: string) => stderr.push(t) } : {}),
  });
  open.push(c);
  return c;
}

const call = (name: string) => ({ name, event: 'tools/call', phase: 'request' as const, payload: { name: 't', arguments: {} } });

async function failure(p: Promise<unknown>): Promise<InvokeError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvokeError);
  return err as InvokeError;
}

describe('InterceptorStdioTransport lane', () => {
  it('answers, and fails each way, as the SDK path did', async () => {
    const client = laneClient();
    await client.discover();
    expect(await client.invoke(call('ok'))).toMatchObject({ interceptor: 'ok', type: 'validation', phase: 'request', valid: true });

    const unknown = await failure(client.invoke(call('nope')));
    expect(unknown.kind).toBe('rpc');
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toBe("interceptor 'nope' on server 'lane' was refused (JSON-RPC -32602): Interceptor 'nope' not found");

    const thrown = await failure(client.invoke(call('fails')));
    expect(thrown.kind).toBe('crash');
    expect(thrown.message).toContain('exploded on purpose');

    // The host's deadline answers -32000 first: a timeout "on the host".
    const hostTimeout = await failure(client.invoke({ ...call('slow'), timeoutMs: 50 }));
    expect(hostTimeout.kind).toBe('timeout');
    expect(hostTimeout.message).toMatch(/timed out on the host: Interceptor 'slow' timed out after 50ms/);
  });

  it('a cancelled invoke tells the server, which aborts the handler; the connection goes on', async () => {
    const stderr: string[] = [];
    const client = laneClient(undefined, stderr);
    await client.discover();
    const controller = new AbortController();
    const pending = client.invoke(call('slow'), { signal: controller.signal, timeoutMs: 20_000 });
    await waitFor(() => stderr.join('').includes('slow started'), 10_000, 'the slow handler to start');
    controller.abort(new Error('the client went away'));
    expect((await failure(pending)).kind).toBe('cancelled');
    await waitFor(() => stderr.join('').includes('slow aborted: Error: the client went away'), 10_000, 'the server to abort the handler');
    expect(await client.invoke(call('ok'))).toMatchObject({ valid: true });
  });

  it('the message tap sees lane traffic both ways, with the same ids', async () => {
    const seen: { direction: string; message: { id?: unknown; method?: unknown } }[] = [];
    const client = laneClient({
      message: (direction, message) => seen.push({ direction, message: message as { id?: unknown } }),
      connectFailed: () => undefined,
    });
    await client.discover();
    seen.length = 0;
    await client.invoke(call('ok'));
    const out = seen.find((s) => s.direction === 'out' && s.message.method === 'interceptor/invoke');
    expect(out).toBeDefined();
    expect(typeof out!.message.id).toBe('string');
    expect(seen.some((s) => s.direction === 'in' && s.message.id === out!.message.id)).toBe(true);
  });

  it('invokes started together leave in one write; SDK requests share the connection', async () => {
    const client = laneClient();
    await client.discover();
    const before = (await client.invoke(call('chunks'))).info as { chunks: number };
    const together = await Promise.all([client.invoke(call('chunks')), client.invoke(call('chunks')), client.invoke(call('chunks'))]);
    // All three were read in one chunk: each saw the count one past `before`.
    for (const r of together) expect((r.info as { chunks: number }).chunks).toBe(before.chunks + 1);
    // The SDK's own requests (list) still work on the same connection, and the lane after them.
    expect((await client.list({ event: 'tools/call' })).interceptors.map((d) => d.name)).toContain('ok');
    expect(await client.invoke(call('ok'))).toMatchObject({ valid: true });
  });

  it('a background invoke (a detached sink) is held for the next write someone waits on, or the hold at most', async () => {
    const client = laneClient();
    await client.discover();
    const chunksOf = (r: { info?: unknown }) => (r.info as { chunks: number }).chunks;
    const before = chunksOf(await client.invoke(call('chunks')));
    const background = client.invoke(call('chunks'), { background: true });
    // A later turn of the event loop, before the hold ends (timers run in the order they are due).
    await new Promise((r) => setTimeout(r, 1));
    const foreground = client.invoke(call('chunks'));
    expect([chunksOf(await background), chunksOf(await foreground)]).toEqual([before + 1, before + 1]);
    // Alone, it still leaves, once the hold is over.
    const started = performance.now();
    expect(chunksOf(await client.invoke(call('chunks'), { background: true }))).toBe(before + 2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(BACKGROUND_HOLD_MS - 1);
  });

  it('a background invoke still held when the connection closes is written before stdin ends', async () => {
    const stderr: string[] = [];
    const client = laneClient(undefined, stderr);
    await client.discover();
    const held = client.invoke(call('noted'), { background: true }).catch(() => undefined);
    for (let i = 0; i < 20; i++) await Promise.resolve(); // the invoke reaches the transport, which holds it
    await client.close();
    await held;
    expect(stderr.join('')).toContain('noted ran');
  });

  it('opens the lane only once the handshake negotiated a version without envelopes', async () => {
    const t = new InterceptorStdioTransport({ command: process.execPath, args: ['-e', 'process.stdin.resume()'] });
    open.push(t);
    await t.start();
    expect(t.invokeLane).toBe(false);
    t.setProtocolVersion('2026-07-28');
    expect(t.invokeLane).toBe(false);
    t.setProtocolVersion('2025-11-25');
    expect(t.invokeLane).toBe(true);
    await t.close();
    expect(t.invokeLane).toBe(false);
    expect(t.exit()).toMatchObject({ code: 0 });
  });

  it('a lane call in flight when the server dies fails as a crash naming how it died', async () => {
    const client = laneClient();
    await client.discover();
    const pid = client.status.pid!;
    const pending = client.invoke(call('slow'), { timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 100));
    process.kill(pid, 'SIGKILL');
    const err = await failure(pending);
    expect(err.kind).toBe('crash');
    expect(err.message).toMatch(/was killed by SIGKILL/);
  });

  it('deadlines without an answer: each call fails at its own, the shorter first however they were started, and the server hears of each', async () => {
    const { transport, out } = await silentLane();
    const started = performance.now();
    const long = outcome(transport.request('interceptor/invoke', { name: 'long' }, { timeout: 600 }));
    const short = outcome(transport.request('interceptor/invoke', { name: 'short' }, { timeout: 150 }));
    const first = await Promise.race([long.then(() => 'long'), short.then(() => 'short')]);
    expect(first).toBe('short');
    expect(performance.now() - started).toBeGreaterThanOrEqual(149);
    expect(performance.now() - started).toBeLessThan(550);
    const [longErr, shortErr] = await Promise.all([long, short]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(599);
    for (const [err, timeout] of [
      [shortErr, 150],
      [longErr, 600],
    ] as const) {
      expect(err).toBeInstanceOf(SdkError);
      expect((err as SdkError).message).toContain('Request timed out');
      expect((err as SdkError).data).toEqual({ timeout });
    }
    await waitFor(() => cancelledIds(out).length === 2, 5_000, 'both cancellations on the wire');
    expect(cancelledIds(out)).toEqual(['i2', 'i1']);
  });

  it('calls answered in time leave no deadline behind, and the lane does not arm a timer per call', async () => {
    const client = laneClient();
    await client.discover();
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      for (let i = 0; i < 20; i++) await client.invoke(call('ok'), { timeoutMs: 5_000 });
      // The client's own bookkeeping may make some; the lane made at most one for all twenty.
      const laneTimers = timers.mock.calls.filter(([, ms]) => typeof ms === 'number' && ms >= 5_000);
      expect(laneTimers.length).toBeLessThanOrEqual(1);
    } finally {
      timers.mockRestore();
    }
    // The next call with a shorter deadline still gets it: the server never answers `slow`.
    expect((await failure(client.invoke(call('slow'), { timeoutMs: 50 }))).kind).toBe('timeout');
  });

  it('one abort signal shared by calls in flight: one listener, every call cancelled, none after they settle', async () => {
    const { transport, out } = await silentLane();
    const controller = new AbortController();
    const calls = [1, 2, 3].map((n) => outcome(transport.request('interceptor/invoke', { name: `c${n}` }, { timeout: 20_000, signal: controller.signal })));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort(new Error('the client went away'));
    for (const err of await Promise.all(calls)) expect(String((err as Error).message)).toContain('the client went away');
    await waitFor(() => cancelledIds(out).length === 3, 5_000, 'three cancellations on the wire');
    expect(cancelledIds(out).sort()).toEqual(['i1', 'i2', 'i3']);
    // Already aborted: refused at once, nothing written.
    expect(await outcome(transport.request('interceptor/invoke', {}, { timeout: 1_000, signal: controller.signal }))).toBeInstanceOf(SdkError);
    expect(out.filter((m) => m.method === 'interceptor/invoke')).toHaveLength(3);
  });

  it("a deadline past Node's timer limit (~24.8 days) neither fires at once nor spins", async () => {
    const { transport } = await silentLane();
    const timers = vi.spyOn(globalThis, 'setTimeout');
    let settled = false;
    const pending = outcome(transport.request('interceptor/invoke', {}, { timeout: 3_000_000_000 })).then((err) => {
      settled = true;
      return err;
    });
    await new Promise((r) => setTimeout(r, 100));
    const armed = timers.mock.calls.filter(([, ms]) => typeof ms === 'number' && ms > 1_000_000).length;
    timers.mockRestore();
    expect(settled).toBe(false);
    expect(armed).toBe(1);
    await transport.close();
    expect(await pending).toBeInstanceOf(SdkError); // the connection closed
  });

  it('a signal that outlives the calls (a chain without a deadline) keeps no listener once they are answered', async () => {
    const client = laneClient();
    await client.discover();
    const forever = new AbortController().signal;
    await Promise.all([client.invoke(call('ok'), { signal: forever }), client.invoke(call('ok'), { signal: forever })]);
    await client.invoke(call('ok'), { signal: forever });
    expect(getEventListeners(forever, 'abort')).toHaveLength(0);
    const pending = client.invoke(call('slow'), { signal: forever, timeoutMs: 50 });
    expect((await failure(pending)).kind).toBe('timeout');
    expect(getEventListeners(forever, 'abort')).toHaveLength(0);
  });
});

/** A lane on a server that reads its stdin and never answers: every outgoing message is kept. */
async function silentLane(): Promise<{ transport: InterceptorStdioTransport; out: { method?: string; params?: { requestId?: string } }[] }> {
  const transport = new InterceptorStdioTransport({ command: process.execPath, args: ['-e', 'process.stdin.resume()'] });
  open.push(transport);
  const out: { method?: string; params?: { requestId?: string } }[] = [];
  transport.useTap({
    message: (direction, message) => void (direction === 'out' && out.push(message as (typeof out)[number])),
    connectFailed: () => undefined,
  });
  await transport.start();
  transport.setProtocolVersion('2025-11-25');
  return { transport, out };
}

function cancelledIds(out: { method?: string; params?: { requestId?: string } }[]): string[] {
  return out.filter((m) => m.method === 'notifications/cancelled').map((m) => m.params!.requestId!);
}

/** What the promise settles with: its rejection, or undefined when it resolves. */
function outcome(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => undefined,
    (e: unknown) => e,
  );
}
