// Payloads reach the backend exactly as the client sent them (issue #14 item 5): through a real gateway (the
// built CLI over stdio) with the bundled samples (`serve-samples`) in the chain, a tools/call with a null
// argument or an own `__proto__` key is not blocked, and the bytes the backend process reads on its stdin
// are the bytes the client wrote, or, when a sample redacts, exactly those bytes with the redaction
// applied (null keys and `__proto__` kept).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/main/gateway';
import { getExecutionRecord, listExecutions, openStore } from '../../src/main/history/sqlite';
import { EMAIL_REPLACEMENT, secretRef } from '../../src/main/interceptors/samples';
import { parseGatewayConfig } from '../../src/shared/config';
import { LineClient, cliPath, root, waitFor, writeConfig } from './helpers';

const backendPath = join(root, 'test/gateway/fixtures/wire-log-backend.mjs');

function configFor(logFile: string, listen?: Record<string, unknown>): Record<string, unknown> {
  return {
    backend: { transport: 'stdio', name: 'wire', command: process.execPath, arguments: [backendPath, '--log', logFile] },
    staticInterceptors: [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] }],
    // Only tool-allowlist needs a config; every other sample runs with its defaults.
    overrides: { 'samples/tool-allowlist': { config: { allow: ['*'] } } },
    ...(listen ? { listen } : {}),
  };
}

/** The line the backend read for request `id` (waits until it is there). */
async function backendLine(logFile: string, id: number): Promise<string> {
  const lines = () => readFileSync(logFile, 'utf8').split('\n');
  const mine = (l: string) => l.startsWith(`{"jsonrpc":"2.0","id":${id},"method":"tools/call"`);
  await waitFor(() => lines().some(mine), 10_000, `the backend to log request ${id}`);
  return lines().find(mine)!;
}

function expectAnswered(answer: Record<string, unknown>): void {
  expect(answer.error).toBeUndefined();
  const result = answer.result as { isError?: boolean; content: { text: string }[] };
  expect(result.isError, JSON.stringify(result)).not.toBe(true);
  expect(result.content[0]!.text).toMatch(/^keys: /);
}

describe('gateway over stdio with the bundled samples forwards arguments byte for byte', () => {
  let gw: LineClient;
  let logFile: string;
  let db: string;

  beforeAll(async () => {
    logFile = join(mkdtempSync(join(tmpdir(), 'ic-wire-')), 'backend-stdin.log');
    db = join(dirname(logFile), 'history.db');
    gw = new LineClient([cliPath, 'gateway', '--config', writeConfig(configFor(logFile)), '--db', db]);
    await gw.initialize();
  });
  afterAll(async () => {
    await gw?.stop();
  });

  /** Writes one raw line, checks it was answered (not blocked), and returns the line the backend read with that id. */
  async function call(id: number, params: string): Promise<{ sent: string; received: string }> {
    const sent = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`;
    gw.writeLine(sent);
    expectAnswered(await gw.response(id));
    return { sent, received: await backendLine(logFile, id) };
  }

  it('a null argument is not blocked and reaches the backend unchanged', async () => {
    const { sent, received } = await call(1, '{"name":"echo","arguments":{"note":null,"nested":{"a":null,"b":[null,1]}}}');
    expect(received).toBe(sent);
  });

  it('an own __proto__ key is not blocked and reaches the backend unchanged', async () => {
    const { sent, received } = await call(2, '{"name":"echo","arguments":{"__proto__":{"polluted":true},"text":"plain"}}');
    expect(received).toBe(sent);
  });

  it('secretless-redactor replaces the secret and keeps null values and __proto__ keys', async () => {
    const secret = 'AKIAIOSFODNN7EXAMPLE';
    const params = `{"name":"echo","arguments":{"__proto__":{"key":"${secret}","gone":null},"note":null,"list":[null,"${secret}"]}}`;
    const { sent, received } = await call(3, params);
    expect(received).toBe(sent.replaceAll(secret, secretRef('aws_access_key', secret)));
  });

  it('email-redactor replaces the address and keeps null values and __proto__ keys', async () => {
    const params = '{"name":"echo","arguments":{"to":"someone@example.org","cc":null,"__proto__":{"x":null}}}';
    const { sent, received } = await call(4, params);
    expect(received).toBe(sent.replace('someone@example.org', EMAIL_REPLACEMENT));
  });

  it('records what was received and forwarded with the same bytes (null values and __proto__ kept)', async () => {
    await gw.stop(); // SIGTERM: the recorder flushes before exit
    const store = openStore(db, { readonly: true, create: false });
    try {
      const records = listExecutions(store.db, {}, { limit: 100 }).items.map((i) => getExecutionRecord(store.db, i.id)!);
      const byId = new Map(records.map((r) => [r.jsonrpcId, r]));
      expect(JSON.stringify(byId.get(1)?.requestReceived)).toBe('{"name":"echo","arguments":{"note":null,"nested":{"a":null,"b":[null,1]}}}');
      expect(JSON.stringify(byId.get(2)?.requestReceived)).toBe('{"name":"echo","arguments":{"__proto__":{"polluted":true},"text":"plain"}}');
      expect(JSON.stringify(byId.get(4)?.requestForwarded)).toBe(`{"name":"echo","arguments":{"to":"${EMAIL_REPLACEMENT}","cc":null,"__proto__":{"x":null}}}`);
    } finally {
      store.close();
    }
  });
});

describe('gateway over Streamable HTTP with the bundled samples forwards arguments byte for byte', () => {
  let gateway: Gateway;
  let logFile: string;
  let session: string;

  async function post(body: string): Promise<{ headers: Headers; message: Record<string, unknown> | undefined }> {
    const res = await fetch(gateway.url!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session ? { 'mcp-session-id': session } : {}) },
      body,
    });
    const text = await res.text();
    // SSE or JSON: the last `data:` line (or the body) is the answer.
    const data =
      text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .filter(Boolean)
        .pop() ?? text.trim();
    return { headers: res.headers, message: data ? (JSON.parse(data) as Record<string, unknown>) : undefined };
  }

  beforeAll(async () => {
    logFile = join(mkdtempSync(join(tmpdir(), 'ic-wire-')), 'backend-stdin.log');
    const parsed = parseGatewayConfig(configFor(logFile, { transport: 'http', port: 0 }));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    gateway = new Gateway(parsed.config);
    await gateway.start();
    const init = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-http', version: '1' } },
      }),
    );
    session = init.headers.get('mcp-session-id') ?? '';
    expect(session).not.toBe('');
    await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('null values and an own __proto__ key pass unblocked and unchanged; a redaction keeps them', async () => {
    const plain = '{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"a":null},"note":null}}}';
    expectAnswered((await post(plain)).message!);
    expect(await backendLine(logFile, 11)).toBe(plain);

    const secret = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    const redacted = `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"token":"${secret}"},"note":null}}}`;
    expectAnswered((await post(redacted)).message!);
    expect(await backendLine(logFile, 12)).toBe(redacted.replace(secret, secretRef('github_pat', secret)));
  });
});
