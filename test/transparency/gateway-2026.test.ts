// Real SDK clients through a gateway in front of the conformance backend (test/conformance/backend.mjs):
// what a direct client sees, a gateway client sees. The 2026-07-28 path (backend errors keep their HTTP
// status, code and data; the link survives them; results the gateway makes are valid 2026 results), stream
// resumption (SEP-1699), and no lost notification after initialized.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../../src/shared/config';
import { Gateway } from '../../src/main/gateway';
import { cliPath } from '../gateway/helpers';
import { startGateway, startHttpBackend, type Running } from './harness';
import { waitFor } from '../support/wait-for';

let backend: Running;
let gateway: Running;
beforeAll(async () => {
  backend = await startHttpBackend();
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

/** One raw 2026-07-28 POST: the HTTP status and the JSON-RPC answer (first SSE data event, or the JSON body). */
async function post2026(
  url: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; message: Record<string, unknown> }> {
  const method = String(body.method);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...body }),
  });
  const text = await response.text();
  const data = text.trim().startsWith('{')
    ? text
    : (
        text
          .split('\n')
          .filter((l) => l.startsWith('data:') && l.length > 6)
          .at(-1) ?? ''
      ).slice(5);
  return { status: response.status, message: JSON.parse(data) as Record<string, unknown> };
}

describe('2026-07-28 over HTTP→HTTP: the backend answers, the gateway relays', () => {
  const cases: [string, Record<string, unknown>, Record<string, string>][] = [
    ['a removed method (ping)', { id: 7, method: 'ping', params: { _meta: envelope } }, {}],
    ['an unknown resource', { id: 8, method: 'resources/read', params: { uri: 'test://missing', _meta: envelope } }, { 'mcp-name': 'test://missing' }],
    [
      'a Mcp-Name header that disagrees with the body',
      { id: 9, method: 'tools/call', params: { name: 'test_simple_text', arguments: {}, _meta: envelope } },
      { 'mcp-name': 'other' },
    ],
    [
      'an unsupported protocol version',
      { id: 10, method: 'tools/list', params: { _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } },
      { 'mcp-protocol-version': '2099-01-01' },
    ],
  ];
  it.each(cases)('%s: same HTTP status, error code, data and id as directly', async (_what, body, headers) => {
    const direct = await post2026(backend.url, body, headers);
    const through = await post2026(gateway.url, body, headers);
    expect(direct.status).toBeGreaterThanOrEqual(200);
    expect({ status: through.status, message: through.message }).toEqual({ status: direct.status, message: direct.message });
    expect(JSON.stringify(through.message)).not.toMatch(/"m\d+"|gateway-reinitialize/);
  });

  it('a refused request leaves the link up: the next request of a pinned v2 client is served', async () => {
    const client = new Client({ name: 'pinned', version: '1' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    await expect(client.readResource({ uri: 'test://missing' })).rejects.toThrow(/-32602|not found/i);
    const result = await client.callTool({ name: 'test_simple_text', arguments: {} });
    expect((result.content as { text: string }[])[0]!.text).toBe('This is a simple text response for testing.');
    await client.close();
  });
});

describe('a blocked call answered to a v2 client pinned to 2026-07-28', () => {
  let blocking: Gateway;
  beforeAll(async () => {
    const parsed = parseGatewayConfig({
      backend: { transport: 'http', name: 'conformance', endpoint: backend.url },
      staticInterceptors: [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] }],
      overrides: { 'samples/tool-allowlist': { config: { allow: ['*'] } } },
      listen: { transport: 'http', port: 0 },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    blocking = new Gateway(parsed.config, { recorder: null, log: () => undefined });
    await blocking.start();
  });
  afterAll(async () => {
    await blocking?.stop();
  });

  it('is a valid 2026-07-28 CallToolResult (resultType), with isError and the reason', async () => {
    const client = new Client({ name: 'pinned', version: '1' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(blocking.url!)));
    const result = await client.callTool({ name: 'test_simple_text', arguments: { note: 'my SSN is 123-45-6789' } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toMatch(/^Blocked by samples\/pii-validator/);
    await client.close();
  });
});

/** Reads SSE events (id, data) from a response until `stop` says so; returns them. */
interface SseEvent {
  id?: string;
  retry?: number;
  data: string;
}
async function readEvents(response: Response, stop: (e: SseEvent) => boolean): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let current: SseEvent = { data: '' };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    buffer += decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      if (line.startsWith('id:')) current.id = line.slice(3).trim();
      else if (line.startsWith('retry:')) current.retry = Number(line.slice(6).trim());
      else if (line.startsWith('data:')) current.data += line.slice(5).trim();
      else if (line === '') {
        events.push(current);
        if (stop(current)) {
          await reader.cancel();
          return events;
        }
        current = { data: '' };
      }
    }
  }
}

describe('stream resumption (SEP-1699) through the gateway', () => {
  it('a client that drops its stream after the priming event and resumes with Last-Event-ID gets its response', async () => {
    const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(gateway.url, {
      method: 'POST',
      headers: base,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const headers = { ...base, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await fetch(gateway.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }).then((r) => r.text());
    const call = await fetch(gateway.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_simple_text', arguments: {} } }),
    });
    // The first event is the priming event (an id, no data): drop the stream right there.
    const [priming] = await readEvents(call, () => true);
    expect(priming?.id).toBeTruthy();
    // As a client does: resume after the announced `retry`, again while the gateway still holds the dropped
    // stream (409 until it noticed the drop).
    let resumed: Response | undefined;
    for (let attempt = 0; attempt < 20 && resumed?.status !== 200; attempt++) {
      await new Promise((r) => setTimeout(r, priming!.retry ?? 500));
      resumed = await fetch(gateway.url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream', 'last-event-id': priming!.id! } });
    }
    expect(resumed!.status).toBe(200);
    const events = await readEvents(resumed!, (e) => e.data.includes('"id":2'));
    const answer = JSON.parse(events.at(-1)!.data) as { id: number; result: { content: { text: string }[] } };
    expect(answer.id).toBe(2);
    expect(answer.result.content[0]!.text).toBe('This is a simple text response for testing.');
  });

  it('a v2 client gets the answer of a call whose backend stream closed mid-call', async () => {
    const client = new Client({ name: 'resume', version: '1' }, { capabilities: {}, versionNegotiation: { mode: 'legacy' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    const result = await client.callTool({ name: 'test_reconnection', arguments: {} });
    expect((result.content as { text: string }[])[0]!.text).toMatch(/^Reconnection test completed successfully/);
    await client.close();
  });
});

describe('notifications right after initialized (HTTP→HTTP)', () => {
  // 100 sessions, 5 at a time: each sets the log level right after connecting (the backend acknowledges it
  // with a log outside any request) and calls a tool that logs three times; all four must arrive.
  it('100 runs of the conformance logging scenario lose no notification', { timeout: 240_000 }, async () => {
    const lost: string[] = [];
    async function run(i: number): Promise<void> {
      const logs: string[] = [];
      const client = new Client({ name: `logging-${i}`, version: '1' }, { capabilities: {}, versionNegotiation: { mode: 'legacy' } });
      client.setNotificationHandler('notifications/message', (n) => void logs.push(String(n.params.data)));
      const transport = new StreamableHTTPClientTransport(new URL(gateway.url));
      await client.connect(transport);
      await client.setLoggingLevel('debug');
      await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      // The tool's three logs come on the call's own stream, before its result; the level's acknowledgement
      // on the GET stream: wait for it (bounded), then count.
      await waitFor(() => logs.length >= 4, 5000, 'four log messages', 10).catch(() => undefined);
      if (logs.length !== 4) lost.push(`run ${i}: ${JSON.stringify(logs)}`);
      // End the session as a well-behaved client does (DELETE): the gateway caps open sessions
      // (listen.maxSessions, 64), and 100 sessions left open would reach the cap.
      await transport.terminateSession();
      await client.close();
    }
    for (let i = 0; i < 100; i += 5) await Promise.all([0, 1, 2, 3, 4].map((k) => run(i + k)));
    expect(lost).toEqual([]);
  });
});
