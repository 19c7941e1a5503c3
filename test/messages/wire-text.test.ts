// Messages read or written over stdio are stored as the text that crossed the wire ([path-speed]: the capture
// keeps the line instead of serializing the parsed message a second time). A client, a backend and an
// interceptor server that write JSON with spaces and \u escapes (as a hand-written or non-JS server may) show
// it: each stored body is the very line, byte for byte, where a re-serialized body would be compact. With
// redaction at rest on, the line is not kept (it holds what is redacted): the redacted message is stored.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/main/gateway';
import { getMessage, listExecutions, listMessages, SqliteHistoryWriter } from '../../src/main/history/sqlite';
import { createRedactor } from '../../src/main/history/model/redaction/redactor';
import { parseGatewayConfig } from '../../src/shared/config';
import { waitFor } from '../gateway/helpers';
import { tempDir } from '../store/fixtures';

/** Writes every answer with a space after each colon and comma, and `é` as \u00e9: valid JSON, not JSON.stringify's. */
const spacedWriter = `const spaced = (m) => JSON.stringify(m).replace(/([:,])/g, '$1 ').replace(/é/g, '\\\\u00e9');
const send = (m) => process.stdout.write(spaced(m) + '\\n');
let buf = '';
process.stdin.setEncoding('utf8').on('data', (t) => {
  buf += t;
  let nl;
  while ((nl = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    if (line.trim()) handle(JSON.parse(line));
  }
});
`;

const backendScript = `${spacedWriter}
function handle(m) {
  if (m.id === undefined) return;
  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'spaced-backend', version: '1' } } });
  if (m.method === 'tools/call') return send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'café ' + m.params.arguments.word }] } });
  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no ' + m.method } });
}
`;

const interceptorScript = `${spacedWriter}
function handle(m) {
  if (m.id === undefined) return;
  if (m.method === 'initialize') {
    return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { extensions: { 'io.modelcontextprotocol/interceptors': { supportedEvents: ['tools/call'] } } }, serverInfo: { name: 'spaced-interceptors', version: '1' } } });
  }
  if (m.method === 'interceptors/list') {
    return send({ jsonrpc: '2.0', id: m.id, result: { interceptors: [{ name: 'café-check', type: 'validation', hooks: [{ events: ['tools/call'], phase: 'request' }] }] } });
  }
  if (m.method === 'interceptor/invoke') return send({ jsonrpc: '2.0', id: m.id, result: { type: 'validation', interceptor: 'café-check', phase: 'request', valid: true } });
  if (m.method === 'ping') return send({ jsonrpc: '2.0', id: m.id, result: {} });
  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no ' + m.method } });
}
`;

const spaced = (m: unknown) =>
  JSON.stringify(m)
    .replace(/([:,])/g, '$1 ')
    .replace(/é/g, '\\u00e9');

let gateway: Gateway | undefined;
let recorder: SqliteHistoryWriter | undefined;
let cleanup: (() => void) | undefined;
afterEach(async () => {
  await gateway?.stop();
  await recorder?.close();
  cleanup?.();
  gateway = recorder = cleanup = undefined;
});

async function callThrough(redactPaths: string[] = []): Promise<{ bodies: Map<string, string>; clientLine: string }> {
  const temp = tempDir('ic-wire-text-');
  cleanup = temp.cleanup;
  const dir = temp.dir;
  writeFileSync(join(dir, 'backend.cjs'), backendScript);
  writeFileSync(join(dir, 'interceptors.cjs'), interceptorScript);
  const redactor = redactPaths.length > 0 ? createRedactor({ paths: redactPaths }) : undefined;
  recorder = SqliteHistoryWriter.open(join(dir, 'history.db'), redactor ? { redactor } : {});
  const parsed = parseGatewayConfig({
    backend: { transport: 'stdio', name: 'spaced', command: process.execPath, arguments: [join(dir, 'backend.cjs')] },
    staticInterceptors: [{ transport: 'stdio', name: 'spaced-ic', command: process.execPath, arguments: [join(dir, 'interceptors.cjs')] }],
    listen: { transport: 'stdio' },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const input = new PassThrough();
  const output = new PassThrough();
  let received = '';
  output.setEncoding('utf8').on('data', (t: string) => (received += t));
  gateway = new Gateway(parsed.config, { name: 'wire-text', recorder, stdio: { input, output } });
  await gateway.start();
  input.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })}\n`,
  );
  await waitFor(() => received.includes('"id":1'), 10_000, 'the initialize answer');
  input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  // The client's own line: spaced too.
  const clientLine = spaced({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { word: 'crème', secret: 'swordfish' } } });
  input.write(`${clientLine}\n`);
  await waitFor(() => received.includes('"id":2'), 10_000, 'the tools/call answer');
  await gateway.stop();
  gateway = undefined;
  await recorder.flush();
  const db = recorder.store.db;
  const [execution] = listExecutions(db, { gateway: 'wire-text', event: 'tools/call' }).items;
  expect(execution).toBeDefined();
  const bodies = new Map<string, string>();
  for (const m of listMessages(db, { gateway: 'wire-text', executionId: execution!.id }, { limit: 100 }).items) {
    bodies.set(`${m.side}:${m.direction}:${m.kind}`, getMessage(db, m.id)!.body);
  }
  return { bodies, clientLine };
}

describe('captured messages keep their wire text', { timeout: 60_000 }, () => {
  it('stores the lines a client, a backend and an interceptor server wrote, as they wrote them', async () => {
    const { bodies, clientLine } = await callThrough();
    expect(bodies.get('client:in:request')).toBe(clientLine);
    const fromBackend = bodies.get('backend:in:response')!;
    expect(fromBackend).toBe(spaced(JSON.parse(fromBackend)));
    expect(fromBackend).toContain('caf\\u00e9 crème');
    const fromInterceptor = bodies.get('interceptor:in:response')!;
    expect(fromInterceptor).toBe(spaced(JSON.parse(fromInterceptor)));
    // What the gateway wrote is stored as written: its own serialization, parseable and complete.
    expect(JSON.parse(bodies.get('backend:out:request')!)).toMatchObject({ method: 'tools/call', params: { arguments: { word: 'crème' } } });
    expect(JSON.parse(bodies.get('interceptor:out:request')!)).toMatchObject({ method: 'interceptor/invoke', params: { name: 'café-check' } });
    expect(JSON.parse(bodies.get('client:out:response')!).result.content[0].text).toBe('café crème');
  });

  it('with redaction at rest, stores the redacted message instead of the line', async () => {
    const { bodies } = await callThrough(['arguments.secret']);
    for (const key of ['client:in:request', 'backend:out:request', 'interceptor:out:request']) {
      expect(bodies.get(key), key).toBeDefined();
      expect(bodies.get(key), key).not.toContain('swordfish');
      expect(bodies.get(key), key).toContain('[REDACTED]');
    }
  });
});
