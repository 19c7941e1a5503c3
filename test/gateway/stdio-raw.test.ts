// The gateway over stdio as a client's bytes see it: raw results (unknown fields kept), tools/list coercion
// and paging, mirrored initialize, malformed and oversized input answered without dropping the connection,
// a backend crash mid-request (error, not hang) and the reconnect on the next request, start failures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LineClient, alive, cliPath, descendants, gatewayArgs, rawBackend, waitFor, writeConfig } from './helpers';

describe('gateway over stdio, raw bytes', () => {
  let gw: LineClient;

  beforeAll(async () => {
    const config = writeConfig({ serverInfo: { name: 'raw-gw', version: '1.0.0' }, backend: rawBackend(), maxMessageBytes: 64 * 1024 });
    gw = new LineClient(gatewayArgs(config));
    await gw.initialize();
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it('mirrors the backend initialize result with the configured serverInfo and without tasks', () => {
    const init = gw.messages.find((m) => m.id === 'init') as { result: Record<string, unknown> };
    expect(init.result.serverInfo).toEqual({ name: 'raw-gw', version: '1.0.0' });
    expect(init.result.instructions).toBe('raw backend instructions');
    expect(init.result.protocolVersion).toBe('2025-06-18');
    expect(init.result.unknownTopLevel).toBe(42);
    expect(init.result.capabilities).toEqual({ tools: { listChanged: true }, experimental: { 'raw/feature': {} } });
  });

  it('forwards results raw, unknown fields included', async () => {
    const res = (await gw.request(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' }, _meta: { progressToken: 7 } })) as {
      result: Record<string, unknown>;
    };
    expect(res.result.extraResultField).toEqual({ nested: true });
    expect(res.result._meta).toEqual({ 'vendor/x': 1 });
    expect(res.result.content).toEqual([{ type: 'text', text: '{"text":"hi"}' }]);
  });

  it('coerces missing or invalid inputSchema and passes pagination cursors through', async () => {
    const first = (await gw.request(2, 'tools/list')) as { result: { tools: Record<string, unknown>[]; nextCursor?: string } };
    const byName = Object.fromEntries(first.result.tools.map((t) => [t.name, t]));
    expect(byName['no-schema']!.inputSchema).toEqual({ type: 'object' });
    expect(byName['bad-schema']!.inputSchema).toEqual({ type: 'object' });
    expect(byName['props-only']!.inputSchema).toEqual({ type: 'object', properties: { a: { type: 'number' } } });
    expect(byName.echo!.customToolField).toBe('kept');
    expect(first.result.nextCursor).toBe('page2');
    const second = (await gw.request(3, 'tools/list', { cursor: 'page2' })) as { result: { tools: { name: string }[]; nextCursor?: string } };
    expect(second.result.tools.map((t) => t.name)).toEqual(['crash', 'big', 'slow']);
    expect(second.result.nextCursor).toBeUndefined();
  });

  it('answers malformed JSON-RPC with an error and keeps the connection', async () => {
    gw.writeLine('{"jsonrpc":"2.0","id":10,"method":');
    gw.writeLine('{"jsonrpc":"2.0","id":11}');
    gw.writeLine('[{"jsonrpc":"2.0","id":12,"method":"ping"}]');
    gw.writeLine('{"jsonrpc":"1.0","id":13,"method":"ping"}');
    await waitFor(() => gw.messages.filter((m) => m.id === null || m.id === 11 || m.id === 13).length >= 4);
    const parse = gw.messages.find((m) => m.id === null && (m.error as { code: number }).code === -32700);
    expect(parse).toBeDefined();
    expect((gw.messages.find((m) => m.id === 11)!.error as { code: number; message: string }).message).toMatch(/neither a request/);
    expect((gw.messages.find((m) => m.id === 13)!.error as { message: string }).message).toMatch(/jsonrpc/);
    const ping = await gw.request(14, 'ping');
    expect(ping.result).toEqual({});
  });

  it('refuses an oversized message with a clear error, then carries on', async () => {
    gw.send({ id: 20, method: 'tools/call', params: { name: 'echo', arguments: { text: 'y'.repeat(100 * 1024) } } });
    await waitFor(() => gw.messages.some((m) => m.id === null && /exceeds the gateway's cap/.test(String((m.error as { message?: string })?.message))));
    const err = gw.messages.find((m) => m.id === null && /exceeds/.test(String((m.error as { message?: string })?.message)))!.error as {
      message: string;
      data: { limit: number };
    };
    expect(err.message).toContain('maxMessageBytes');
    expect(err.data.limit).toBe(64 * 1024);
    const ok = (await gw.request(21, 'tools/call', { name: 'echo', arguments: { text: 'after' } })) as { result: { content: { text: string }[] } };
    expect(ok.result.content[0]!.text).toBe('{"text":"after"}');
  });

  it('errors the pending request when the backend crashes, then reconnects on the next request', async () => {
    const before = (await gw.request(30, 'tools/call', { name: 'echo', arguments: {} })) as { result: { pid: number } };
    const crashed = (await gw.request(31, 'tools/call', { name: 'crash', arguments: {} })) as { error: { code: number; message: string } };
    expect(crashed.error.code).toBe(-32000);
    expect(crashed.error.message).toContain('exited with code 3');
    expect(crashed.error.message).toContain('boom: simulated crash');
    await waitFor(() => !alive(before.result.pid), 5000, 'old backend gone');
    const after = (await gw.request(32, 'tools/call', { name: 'echo', arguments: { again: true } })) as {
      result: { pid: number; content: { text: string }[] };
    };
    expect(after.result.pid).not.toBe(before.result.pid);
    expect(after.result.content[0]!.text).toBe('{"again":true}');
    expect(gw.stderr).toContain('reconnected');
  });

  it('relays notifications both ways', async () => {
    await gw.request(40, 'tools/call', { name: 'notify-all', arguments: {} });
    const methods = gw.messages.filter((m) => typeof m.method === 'string' && m.id === undefined).map((m) => m.method);
    expect(methods).toEqual(
      expect.arrayContaining([
        'notifications/tools/list_changed',
        'notifications/prompts/list_changed',
        'notifications/resources/list_changed',
        'notifications/resources/updated',
        'notifications/message',
      ]),
    );
    gw.send({ method: 'notifications/roots/list_changed' });
    await waitFor(() => gw.messages.some((m) => (m.params as { data?: string } | undefined)?.data === 'backend saw roots/list_changed'));
  });

  it('writes nothing but JSON-RPC to stdout', () => {
    expect(gw.stdoutNonJson).toEqual([]);
  });
});

describe('gateway start failures and signals', { timeout: 90_000 }, () => {
  it('exits 2 with the JSON path on an invalid config', async () => {
    const gw = new LineClient(gatewayArgs(writeConfig({ backend: { transport: 'stdio', name: 'b', command: 42 } })));
    await waitFor(() => gw.exit !== undefined);
    expect(gw.exit!.code).toBe(2);
    expect(gw.stderr).toContain('backend.command: expected a string (the command that starts the backend)');
  });

  it('names the command and the stderr tail when the backend fails to start', async () => {
    const gw = new LineClient(gatewayArgs(writeConfig({ backend: rawBackend('db-server', ['--fail-start']) })));
    await waitFor(() => gw.exit !== undefined);
    expect(gw.exit!.code).toBe(1);
    expect(gw.stderr).toContain('backend "db-server"');
    expect(gw.stderr).toContain('raw-backend.mjs --fail-start');
    expect(gw.stderr).toContain('exited with code 1');
    expect(gw.stderr).toContain('cannot open database /nonexistent/raw.db');
  });

  it('explains a command that does not exist', async () => {
    const gw = new LineClient(gatewayArgs(writeConfig({ backend: { transport: 'stdio', name: 'ghost', command: 'definitely-not-a-command-xyz' } })));
    await waitFor(() => gw.exit !== undefined);
    expect(gw.exit!.code).toBe(1);
    expect(gw.stderr).toMatch(/could not start backend "ghost": definitely-not-a-command-xyz: .*ENOENT.*command not found/);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`stops cleanly on ${signal}: the backend and interceptor-server children are gone`, async () => {
      const samples = { transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] };
      const gw = new LineClient(
        gatewayArgs(
          writeConfig({ backend: rawBackend(), staticInterceptors: [samples], overrides: { 'samples/tool-allowlist': { config: { allow: ['*'] } } } }),
        ),
      );
      await gw.initialize();
      const echo = (await gw.request(1, 'tools/call', { name: 'echo', arguments: { mail: 'a@b.io' } })) as {
        result: { pid: number; content: { text: string }[] };
      };
      expect(echo.result.content[0]!.text).toBe('{"mail":"[EMAIL_REDACTED]"}');
      const children = descendants(gw.child.pid!);
      expect(children).toContain(echo.result.pid);
      expect(children.length).toBeGreaterThanOrEqual(2); // the backend and the interceptor server
      gw.child.kill(signal);
      await waitFor(() => gw.exit !== undefined, 20_000, 'gateway exit');
      expect(gw.exit!.code).toBe(0);
      await waitFor(() => children.every((pid) => !alive(pid)), 5000, `children ${children.join(', ')} gone`);
    });
  }
});
