// A 2026-07-28 HTTP backend whose answer never ends one message (a JSON value or an SSE event that keeps
// growing): the gateway stops reading past maxMessageBytes and answers the client with an error, instead
// of buffering without bound while the client waits.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../../src/shared/config';
import { Gateway } from '../../src/main/gateway';
import { JsonValueSplitter, MessageTooLargeError } from '../../src/main/gateway/wire/json-values';

const CAP = 64 * 1024;
let backend: Server;
let closedByGateway = 0;

beforeAll(async () => {
  backend = createServer((req, res) => {
    const sse = req.url === '/sse';
    res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/json' });
    res.write(sse ? 'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"text":"' : '{"jsonrpc":"2.0","id":1,"result":{"text":"');
    const chunk = 'x'.repeat(16 * 1024);
    const timer = setInterval(() => res.write(chunk), 5);
    res.on('close', () => {
      clearInterval(timer);
      closedByGateway++;
    });
  });
  await new Promise<void>((r) => backend.listen(0, '127.0.0.1', () => r()));
});
afterAll(async () => {
  backend.closeAllConnections();
  await new Promise((r) => backend.close(r));
});

async function gatewayTo(path: string): Promise<Gateway> {
  const port = (backend.address() as AddressInfo).port;
  const parsed = parseGatewayConfig({
    backend: { transport: 'http', name: 'endless', endpoint: `http://127.0.0.1:${port}${path}` },
    listen: { transport: 'http', port: 0 },
    maxMessageBytes: CAP,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const gateway = new Gateway(parsed.config, { recorder: null, log: () => undefined });
  await gateway.start();
  return gateway;
}

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

describe('an endless message from a 2026-07-28 HTTP backend', () => {
  it.each(['/json', '/sse'])('%s: the client gets an error naming maxMessageBytes, and the backend stream is closed', async (path) => {
    const gateway = await gatewayTo(path);
    try {
      const before = closedByGateway;
      const response = await fetch(gateway.url!, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/list',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } }),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      expect(text).toContain('maxMessageBytes');
      expect(text.length).toBeLessThan(CAP);
      await expect.poll(() => closedByGateway - before).toBe(1);
    } finally {
      await gateway.stop();
    }
  });

  it('the splitter refuses a value longer than its cap', () => {
    const splitter = new JsonValueSplitter(10);
    expect(splitter.push('{"a":1}\n')).toEqual(['{"a":1}']);
    expect(() => splitter.push('{"a":"0123456789')).toThrow(MessageTooLargeError);
  });
});
