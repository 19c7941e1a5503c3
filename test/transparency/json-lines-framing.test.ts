// A backend that streams 2026-07-28 answers as newline-delimited JSON in a chunked `application/json` body
// (test/conformance/backend.mjs --framing json-lines): through a gateway the client gets the same framing,
// each message as it comes (not once the body ends: shown with a call whose answer waits until the test
// releases it, not by timing), and a subscriptions/listen stream, which never ends,
// delivers its acknowledgement and its notifications.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, startHttpBackend, type Running } from './harness';

let backend: Running;
let gateway: Running;
beforeAll(async () => {
  backend = await startHttpBackend(['--framing', 'json-lines']);
  gateway = await startGateway(backend.url);
});
afterAll(async () => {
  await gateway?.stop();
  await backend?.stop();
});

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

function post(url: string, method: string, params: Record<string, unknown>, name?: string, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 41, method, params: { ...params, _meta: { ...envelope, ...(params._meta as object) } } }),
    signal,
  });
}

/** The next JSON line of a body (what was read past it waits for the next call); fails if none comes within `ms`. */
const pending = new WeakMap<ReadableStreamDefaultReader<Uint8Array>, { decoder: TextDecoder; buffer: string }>();
async function readLine(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<Record<string, unknown>> {
  let state = pending.get(reader);
  if (!state) pending.set(reader, (state = { decoder: new TextDecoder(), buffer: '' }));
  const deadline = setTimeout(() => void reader.cancel(new Error('no line in time')), ms);
  try {
    for (;;) {
      const nl = state.buffer.indexOf('\n');
      if (nl >= 0) {
        const line = state.buffer.slice(0, nl);
        state.buffer = state.buffer.slice(nl + 1);
        if (line.trim()) return JSON.parse(line) as Record<string, unknown>;
        continue;
      }
      const { done, value } = await reader.read();
      if (done) throw new Error(`the body ended (or nothing came within ${ms} ms) before a complete line; had: ${state.buffer.slice(0, 200)}`);
      state.buffer += state.decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(deadline);
  }
}

/** Reads JSON lines from a body until `count` messages came or `ms` passed; when each one arrived. */
async function readLines(response: Response, count: number, ms: number): Promise<{ messages: Record<string, unknown>[]; at: number[] }> {
  const reader = response.body!.getReader();
  const started = performance.now();
  const messages: Record<string, unknown>[] = [];
  const at: number[] = [];
  try {
    while (messages.length < count) {
      const left = ms - (performance.now() - started);
      if (left <= 0) break;
      messages.push(await readLine(reader, left));
      at.push(performance.now() - started);
    }
  } catch {
    // The body ended or the time ran out: what came is the answer.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return { messages, at };
}

describe('json-lines framing through a gateway (HTTP→HTTP)', () => {
  it('a call with progress: same framing, same messages as directly, each relayed when it comes', async () => {
    const params = { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 'tok-1' } };
    const direct = await post(backend.url, 'tools/call', params, 'test_tool_with_progress');
    const through = await post(gateway.url, 'tools/call', params, 'test_tool_with_progress');
    expect(through.status).toBe(direct.status);
    expect(through.headers.get('content-type')).toBe('application/json');
    const [a, b] = await Promise.all([readLines(direct, 4, 5000), readLines(through, 4, 5000)]);
    expect(b.messages).toEqual(a.messages);
    expect(b.messages.map((m) => m.method ?? 'result')).toEqual(['notifications/progress', 'notifications/progress', 'notifications/progress', 'result']);
  });

  it('relays a progress notification before its answer exists (no timing: the answer waits for the test)', async () => {
    const params = { name: 'test_progress_until_released', arguments: {}, _meta: { progressToken: 'gated' } };
    const through = await post(gateway.url, 'tools/call', params, 'test_progress_until_released');
    expect(through.status).toBe(200);
    // A gateway that held the body until it ended would deliver nothing here: the answer is not made yet.
    const reader = through.body!.getReader();
    const first = await readLine(reader, 10_000);
    expect(first).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'gated', progress: 0 } });
    const release = await post(backend.url, 'tools/call', { name: 'test_release_progress', arguments: {} }, 'test_release_progress');
    expect(await release.text()).toContain('released 1');
    expect(await readLine(reader, 10_000)).toMatchObject({ result: { content: [{ type: 'text', text: 'released' }] } });
    await reader.cancel().catch(() => undefined);
  });

  it('a subscriptions/listen stream: acknowledged first, then the notification, tagged with the client’s id', async () => {
    const controller = new AbortController();
    const listen = await post(gateway.url, 'subscriptions/listen', { notifications: { toolsListChanged: true } }, undefined, controller.signal);
    expect(listen.status).toBe(200);
    const reading = readLines(listen, 2, 5000);
    await new Promise((r) => setTimeout(r, 200));
    const trigger = await post(gateway.url, 'tools/call', { name: 'test_trigger_tool_change', arguments: {} }, 'test_trigger_tool_change');
    expect(((await trigger.json()) as { result?: unknown }).result).toBeDefined();
    const { messages, at } = await reading;
    controller.abort();
    expect(messages.map((m) => m.method)).toEqual(['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed']);
    expect(at[0]).toBeLessThan(1000);
    for (const m of messages) expect((m.params as { _meta: Record<string, unknown> })._meta['io.modelcontextprotocol/subscriptionId']).toBe(41);
  });
});

describe('progress tokens through a gateway', () => {
  it('the backend sees the client’s own token; two requests in flight with one token each get their own progress', async () => {
    const params = (token: string) => ({ name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: token } });
    const [first, second] = await Promise.all([
      post(gateway.url, 'tools/call', params('same'), 'test_tool_with_progress'),
      post(gateway.url, 'tools/call', params('same'), 'test_tool_with_progress'),
    ]);
    const [a, b] = await Promise.all([readLines(first, 4, 5000), readLines(second, 4, 5000)]);
    for (const { messages } of [a, b]) {
      expect(messages.slice(0, 3).map((m) => (m.params as { progressToken: string }).progressToken)).toEqual(['same', 'same', 'same']);
    }
    // The tool echoes the token it was given: one of the two saw the client's, the other the gateway's stand-in.
    const echoed = [a, b].map(({ messages }) => (messages[3]!.result as { content: { text: string }[] }).content[0]!.text);
    expect(echoed.filter((t) => t === 'same')).toHaveLength(1);
  });
});
