// Items 3 (start/stop serialized), 4 (stdio ids byte-exact, not kept) and 5 (absurdly deep params) of issue
// #15: the gateway in process where its internals are the evidence, as a process where bytes are.
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../../src/shared/config';
import { MemoryRecorder } from '../../src/shared/trace/execution';
import { Gateway } from '../../src/main/gateway';
import { chaosBackend, chaosDir, cliPath, descendants, recordedCalls, waitFor } from './harness';
import { everythingBackend, LineClient } from '../gateway/helpers';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('item 3: start/stop serialized', () => {
  it('a fast Start→Stop→Start→Stop leaves no process, and stopping does not hang', async () => {
    const d = chaosDir();
    cleanups.push(d.cleanup);
    const parsed = parseGatewayConfig({
      backend: chaosBackend(d),
      staticInterceptors: [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] }],
      listen: { transport: 'http', port: 0 },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const gateway = new Gateway(parsed.config, { name: 'clicks' });
    cleanups.push(() => gateway.stop({ drainMs: 0 }));
    const before = new Set(descendants(process.pid));
    // Clicks as fast as a user can make them, none awaited before the next.
    const clicks = [gateway.start(), gateway.stop(), gateway.start(), gateway.stop(), gateway.start(), gateway.stop()];
    await Promise.all(clicks.map((c) => c.catch(() => undefined)));
    expect(gateway.status().state).toBe('stopped');
    // Nothing this gateway started may be left (interceptor servers connecting during a stop included).
    await waitFor(() => descendants(process.pid).filter((p) => !before.has(p)).length === 0, 15_000, 'no process left by the clicks');
    // And a final Start leaves exactly what a running gateway needs: its interceptor server.
    await gateway.start();
    await waitFor(() => descendants(process.pid).filter((p) => !before.has(p)).length >= 1, 15_000, 'the interceptor server of the running gateway');
    await gateway.stop();
    await waitFor(() => descendants(process.pid).filter((p) => !before.has(p)).length === 0, 15_000, 'stopped cleanly');
  });
});

describe('item 4: stdio ids', () => {
  it('answers 1.5, 1e999 and 2^53+1 byte-exactly as sent', async () => {
    const d = chaosDir();
    cleanups.push(d.cleanup);
    const { writeConfig, gatewayArgs } = await import('../gateway/helpers');
    const client = new LineClient(gatewayArgs(writeConfig({ backend: chaosBackend(d) })));
    cleanups.push(() => client.stop());
    const raw: string[] = [];
    client.child.stdout.on('data', (t: string) => raw.push(t));
    await client.initialize();
    for (const id of ['1.5', '1e999', '9007199254740993', '-0', '1.0']) client.writeLine(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
    await waitFor(
      () =>
        raw
          .join('')
          .split('\n')
          .filter((l) => l.includes('"result":{}')).length >= 5,
      20_000,
      'five answers',
    );
    const lines = raw
      .join('')
      .split('\n')
      .filter((l) => l.includes('"result":{}'));
    expect(lines).toEqual(['1.5', '1e999', '9007199254740993', '-0', '1.0'].map((id) => `{"jsonrpc":"2.0","id":${id},"result":{}}`));
  });

  it('keeps nothing once they are answered (1,000 odd ids)', { timeout: 90_000 }, async () => {
    const d = chaosDir();
    cleanups.push(d.cleanup);
    // server-everything (an SDK server) takes integer ids only: odd ids reach it as the gateway's tokens.
    const parsed = parseGatewayConfig({ backend: everythingBackend });
    if (!parsed.ok) throw new Error('config');
    const input = new PassThrough();
    const output = new PassThrough();
    let out = '';
    output.setEncoding('utf8').on('data', (t: string) => (out += t));
    const gateway = new Gateway(parsed.config, { stdio: { input, output }, recorder: new MemoryRecorder() });
    await gateway.start();
    cleanups.push(() => gateway.stop({ drainMs: 0 }));
    input.write(
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n',
    );
    await waitFor(() => /"id":0[,}]/.test(out), 30_000, 'initialized');
    input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    for (let i = 0; i < 1000; i++) input.write(`{"jsonrpc":"2.0","id":${i}.5,"method":"ping"}\n`);
    await waitFor(() => (out.match(/"id":\d+\.5[,}]/g) ?? []).length === 1000, 30_000, '1000 answers');
    expect(gateway.stdioSession!.pendingCount).toBe(0);
  });
});

describe('item 5: params nested ~4,300 levels deep', () => {
  it('get a clear JSON-RPC error, keep the backend link, and are recorded', async () => {
    const d = chaosDir();
    cleanups.push(d.cleanup);
    const { writeConfig } = await import('../gateway/helpers');
    const client = new LineClient([cliPath, 'gateway', '--config', writeConfig({ backend: chaosBackend(d) }), '--db', d.db, '--no-watch']);
    cleanups.push(() => client.stop());
    await client.initialize();
    const first = (await client.request(1, 'tools/call', { name: 'echo', arguments: {} })) as { result: { pid: number } };
    const deep = `${'{"a":'.repeat(4300)}{}${'}'.repeat(4300)}`;
    client.writeLine(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"key":"deep","deep":${deep}}}}`);
    const answer = (await client.response(2)) as { error: { code: number; message: string } };
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toMatch(/nested too deeply/);
    const after = (await client.request(3, 'tools/call', { name: 'echo', arguments: {} })) as { result: { pid: number } };
    expect(after.result.pid).toBe(first.result.pid); // the same backend: the link was not dropped
    await client.stop();
    const { calls } = recordedCalls(d.db);
    expect(calls).toHaveLength(3);
    expect(calls.find((c) => c.key === 'deep')).toMatchObject({ outcome: 'error', error: { code: -32602 } });
  });
});
