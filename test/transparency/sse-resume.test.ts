// SEP-1699 through a gateway when the backend asks clients to wait before resuming (`retry: 5000`): the
// backend closes a tool call's SSE stream mid-call, the gateway closes its client's stream the same way, the
// client resumes at once with Last-Event-ID, and the gateway resumes the backend's stream then, not after
// the backend's 5 s (a client that reads its resumed stream for a few seconds, as the conformance suite
// does, got nothing through the gateway while it got the answer directly).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, startHttpBackend, type Running } from './harness';

let backend: Running;
let gateway: Running;
beforeAll(async () => {
  backend = await startHttpBackend(['--sse-retry', '5000']);
  gateway = await startGateway(backend.url);
});
afterAll(async () => {
  await gateway?.stop();
  await backend?.stop();
});

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

async function session(url: string): Promise<string> {
  const init = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'resume', version: '1' } },
    }),
  });
  const id = init.headers.get('mcp-session-id');
  await init.text();
  expect(id).toBeTruthy();
  await (
    await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': id! },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    })
  ).text();
  return id!;
}

/** Calls test_reconnection, reads the POST stream to its end, resumes it; the tool's answer and how long the resumed stream took. */
async function callAndResume(url: string): Promise<{ dropped: string; answer?: Record<string, unknown>; resumedMs: number }> {
  const sessionId = await session(url);
  const post = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'test_reconnection', arguments: {} } }),
  });
  const dropped = await post.text();
  const lastEventId = [...dropped.matchAll(/^id: (.+)$/gm)].at(-1)?.[1];
  expect(lastEventId, `the POST stream carried no event id: ${dropped}`).toBeTruthy();
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 3000);
  let answer: Record<string, unknown> | undefined;
  try {
    const resumed = await fetch(url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', 'last-event-id': lastEventId! },
      signal: controller.signal,
    });
    expect(resumed.status).toBe(200);
    const reader = resumed.body!.getReader();
    let text = '';
    while (!answer) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
      const data = [...text.matchAll(/^data: (\{.+)$/gm)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
      answer = data.find((m) => m.id === 1);
    }
    await reader.cancel();
  } catch {
    // aborted after 3 s without the answer
  } finally {
    clearTimeout(timer);
  }
  await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } });
  return { dropped, answer, resumedMs: performance.now() - started };
}

describe('stream resumption through a gateway, backend retry 5 s', () => {
  it('directly: the answer comes on the resumed stream within a second', async () => {
    const direct = await callAndResume(backend.url);
    expect(direct.answer?.result).toBeDefined();
    expect(direct.resumedMs).toBeLessThan(1500);
  });

  it('through the gateway (HTTP→HTTP): the same, the POST stream ended without the answer as directly', async () => {
    const through = await callAndResume(gateway.url);
    expect(through.dropped).not.toMatch(/Reconnection test completed/);
    expect(through.answer?.result).toEqual({
      content: [
        { type: 'text', text: 'Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.' },
      ],
    });
    expect(through.resumedMs).toBeLessThan(1500);
  });
});

describe('stream resumption when the client drops its stream', () => {
  let viaStdio: Running;
  beforeAll(async () => {
    viaStdio = await startGateway('stdio');
  });
  afterAll(async () => {
    await viaStdio?.stop();
  });

  /** Calls a tool that logs for ~100 ms, drops the POST stream after its first event, resumes it; every message after the drop. */
  async function dropAndResume(url: string): Promise<Record<string, unknown>[]> {
    const sessionId = await session(url);
    const controller = new AbortController();
    const post = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'test_tool_with_logging', arguments: {} } }),
      signal: controller.signal,
    });
    const reader = post.body!.getReader();
    let first = '';
    while (!/^id: .+$/m.test(first)) first += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const lastEventId = [...first.matchAll(/^id: (.+)$/gm)].at(-1)![1]!;
    await new Promise((r) => setTimeout(r, 300)); // the call ends while the client is away
    const resumedController = new AbortController();
    const timer = setTimeout(() => resumedController.abort(), 3000);
    const messages: Record<string, unknown>[] = [];
    try {
      const resumed = await fetch(url, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', 'last-event-id': lastEventId },
        signal: resumedController.signal,
      });
      const r = resumed.body!.getReader();
      let text = '';
      while (!messages.some((m) => m.id === 7)) {
        const { value, done } = await r.read();
        if (done) break;
        text += new TextDecoder().decode(value);
        messages.splice(0, messages.length, ...[...text.matchAll(/^data: (\{.+)$/gm)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>));
      }
      await r.cancel();
    } catch {
      // aborted after 3 s
    } finally {
      clearTimeout(timer);
    }
    await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } });
    return messages;
  }

  it.each(['direct', 'HTTP→HTTP', 'HTTP→stdio'])('%s: what was sent while the client was away comes on the resumed stream, answer included', async (path) => {
    const url = path === 'direct' ? backend.url : path === 'HTTP→HTTP' ? gateway.url : viaStdio.url;
    const messages = await dropAndResume(url);
    const answer = messages.find((m) => m.id === 7);
    expect(answer?.result, JSON.stringify(messages)).toEqual({ content: [{ type: 'text', text: 'Tool with logging executed successfully' }] });
  });
});
