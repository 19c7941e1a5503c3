// 2026-07-28 (per-request envelope, server/discover instead of initialize) through the gateway: the era is
// negotiated end to end, so a client pinned to 2026-07-28 is served when the backend speaks it; with a
// down-level backend a probing client falls back to 2025-11-25 (see everything-*.test.ts, kind v2-auto).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../../src/shared/config';
import { MemoryRecorder } from '../../src/shared/trace/execution';
import { Gateway } from '../../src/main/gateway';
import { gatewayArgs, root, writeConfig } from './helpers';
import { join } from 'node:path';

const v2Backend = { transport: 'stdio', name: 'v2', command: process.execPath, arguments: [join(root, 'test/gateway/fixtures/v2-backend.mjs')] };

describe('a 2026-07-28 client through the gateway', () => {
  let client: Client;
  beforeAll(async () => {
    const config = writeConfig({ backend: v2Backend, serverInfo: { name: 'modern-gateway', version: '3.0.0' } });
    client = new Client({ name: 'modern-client', version: '1' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: gatewayArgs(config), stderr: 'ignore' }));
  });
  afterAll(async () => {
    await client?.close();
  });

  it('negotiates 2026-07-28 with server/discover, mirrored with the configured serverInfo', () => {
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getServerVersion()?.name).toBe('modern-gateway');
    expect(client.getInstructions()).toBe('v2 backend');
  });

  it('forwards envelope-carrying requests and their results', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo']);
    const result = await client.callTool({ name: 'echo', arguments: { message: 'modern' } });
    expect((result.content as { text: string }[])[0]!.text).toBe('v2 echo: modern');
  });
});

describe('a 2026-07-28 client over the HTTP listener', () => {
  let gateway: Gateway;
  const clients: Client[] = [];
  beforeAll(async () => {
    const parsed = parseGatewayConfig({ backend: v2Backend, listen: { transport: 'http', port: 0, tokens: { t: 'dave' } } });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    gateway = new Gateway(parsed.config, { recorder });
    await gateway.start();
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await gateway?.stop();
  });
  const recorder = new MemoryRecorder();

  async function connect(): Promise<Client> {
    const client = new Client({ name: 'modern-http', version: '1' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url!), { requestInit: { headers: { Authorization: 'Bearer t' } } }));
    clients.push(client);
    return client;
  }

  it('serves per-request traffic; two clients of one principal share a backend without mixing ids', async () => {
    const [a, b] = [await connect(), await connect()];
    expect(a.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const [ra, rb] = await Promise.all([
      a.callTool({ name: 'echo', arguments: { message: 'from a' } }),
      b.callTool({ name: 'echo', arguments: { message: 'from b' } }),
    ]);
    expect((ra.content as { text: string }[])[0]!.text).toBe('v2 echo: from a');
    expect((rb.content as { text: string }[])[0]!.text).toBe('v2 echo: from b');
    expect(recorder.executions.filter((e) => e.event === 'tools/call')).toHaveLength(2);
    expect(recorder.sessions.at(-1)?.principal).toEqual({ type: 'user', id: 'dave' });
  });
});
