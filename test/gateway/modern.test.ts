// 2026-07-28 (per-request envelope, server/discover instead of initialize) through the gateway: the era is
// negotiated end to end, so a client pinned to 2026-07-28 is served when the backend speaks it; with a
// down-level backend a probing client falls back to 2025-11-25 (see everything-*.test.ts, kind v2-auto).
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
