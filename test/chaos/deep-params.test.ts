// Issue [path-fidelity] item 4: params nested thousands of levels deep, through a gateway that runs
// interceptors (the sample server), over HTTP and stdio. They used to fail half-way: -32603 from the chain
// and a record the recorder could not encode ("record rejected"), or HTTP 500 with stack-overflow text for
// an initialize. Each must get -32602 saying what to do, and each call must be in the history file.
// Real parts: the built CLI gateway, the chaos backend, the sample interceptor server, a SQLite file.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PAYLOAD_DEPTH } from '../../src/shared/protocol/payload-depth';
import { chaosBackend, chaosDir, cliPath, GatewayProcess, HttpSession, recordedCalls, type ChaosDir } from './harness';
import { LineClient, writeConfig } from '../gateway/helpers';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The backend and the sample interceptors (every tool allowed), as a gateway config. */
function withInterceptors(d: ChaosDir): Record<string, unknown> {
  return {
    backend: chaosBackend(d),
    staticInterceptors: [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] }],
    overrides: { 'samples/tool-allowlist': { config: { allow: ['*'] } } },
  };
}

/** A tools/call line whose `d` argument nests `levels` arrays (built as text: JSON.stringify would overflow here too). */
function deepCall(id: number, key: string, levels: number): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"key":"${key}","d":${'['.repeat(levels)}${']'.repeat(levels)}}}}`;
}

const DEPTHS = [4_500, 8_000, 100_000];

describe('params nested too deeply, with interceptors', { timeout: 120_000 }, () => {
  it('over HTTP: -32602 for each, the session goes on, and every call is recorded', async () => {
    const d = chaosDir();
    cleanups.push(d.cleanup);
    const gateway = new GatewayProcess(d, withInterceptors(d));
    cleanups.push(() => gateway.stop());
    const url = await gateway.ready();
    const session = new HttpSession(url);
    await session.initialize();
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': session.sessionId,
      'mcp-protocol-version': '2025-06-18',
    };
    for (const levels of DEPTHS) {
      const res = await fetch(url, { method: 'POST', headers, body: deepCall(levels, `deep-${levels}`, levels) });
      const text = await res.text();
      expect(text, `depth ${levels}`).toContain(`"id":${levels},"error":{"code":-32602`);
      expect(text).toContain('nested too deeply');
    }
    // A call just under the limit still goes through the chain to the backend and back.
    const fine = await session.tool('echo', { key: 'fine' });
    expect(fine.result).toBeDefined();
    await gateway.stop();
    const { calls } = recordedCalls(d.db);
    for (const levels of DEPTHS)
      expect(
        calls.find((c) => c.key === `deep-${levels}`),
        `record of depth ${levels}`,
      ).toMatchObject({ outcome: 'error', error: { code: -32602 } });
    expect(calls.find((c) => c.key === 'fine')).toMatchObject({ outcome: 'allow' });
    expect(gateway.stderr).not.toContain('record rejected');
  });

  it('over stdio: -32602 for each, and every call is recorded', async () => {
    const d = chaosDir();
    cleanups.push(d.cleanup);
    const client = new LineClient([cliPath, 'gateway', '--config', writeConfig(withInterceptors(d)), '--db', d.db, '--no-watch']);
    cleanups.push(() => client.stop());
    await client.initialize();
    for (const levels of DEPTHS) {
      client.writeLine(deepCall(levels, `deep-${levels}`, levels));
      const answer = (await client.response(levels)) as { error?: { code: number; message: string } };
      expect(answer.error, `depth ${levels}`).toMatchObject({ code: -32602, message: expect.stringContaining('nested too deeply') });
    }
    // Exactly at the limit (params → arguments → d): accepted and answered by the backend.
    client.writeLine(deepCall(1, 'at-limit', MAX_PAYLOAD_DEPTH - 2));
    expect(await client.response(1)).toHaveProperty('result');
    await client.stop();
    const { calls } = recordedCalls(d.db);
    for (const levels of DEPTHS)
      expect(
        calls.find((c) => c.key === `deep-${levels}`),
        `record of depth ${levels}`,
      ).toMatchObject({ outcome: 'error', error: { code: -32602 } });
    expect(calls.find((c) => c.key === 'at-limit')).toMatchObject({ outcome: 'allow' });
    expect(client.stderr).not.toContain('record rejected');
  });

  it('a 100,000-level initialize over HTTP gets 400 with -32602, not a 500 with stack-overflow text', async () => {
    const d = chaosDir();
    cleanups.push(d.cleanup);
    const gateway = new GatewayProcess(d, withInterceptors(d));
    cleanups.push(() => gateway.stop());
    const url = await gateway.ready();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"deep","version":"1"},"d":${deep}}}`,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { id: unknown; error: { code: number; message: string } };
    expect(body).toMatchObject({ id: 1, error: { code: -32602, message: expect.stringContaining('nested too deeply') } });
    expect(body.error.message).not.toMatch(/call stack/i);
    // The gateway still opens sessions.
    await new HttpSession(url).initialize();
  });
});
