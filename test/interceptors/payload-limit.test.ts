// Issue 15: a per-invoke payload size limit on both sides. The host refuses a larger payload with
// -32602 before its handler runs; the chain does not send one; either way the failure is routed by
// failOpen (fail-closed blocks with a message naming the limit, fail-open continues).
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainRuntime } from '../../src/main/interceptors/chain';
import { InterceptorServerClient } from '../../src/main/interceptors/client';
import { InterceptorHost } from '../../src/main/interceptors/host';
import { parseGatewayConfig } from '../../src/shared/config';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../../src/shared/protocol';
import { allow, desc, ic, memServer } from '../chain/helpers';

const clients: InterceptorServerClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function hostWithCounter(maxPayloadBytes?: number) {
  const seen: number[] = [];
  const host = new InterceptorHost(maxPayloadBytes === undefined ? {} : { maxPayloadBytes });
  host.registerValidator({
    name: 'size-check',
    events: ['tools/call'],
    phase: 'request',
    handler: (payload) => {
      seen.push(JSON.stringify(payload).length);
      return true;
    },
  });
  return { host, seen };
}

function clientFor(host: InterceptorHost, failOpen = false): InterceptorServerClient {
  const client = new InterceptorServerClient({
    name: 'limited',
    failOpen,
    autoReconnect: false,
    connection: {
      transport: 'custom',
      label: 'in-memory',
      connect: async () => {
        const [a, b] = InMemoryTransport.createLinkedPair();
        await host.createServer().connect(b);
        return a;
      },
    },
  });
  clients.push(client);
  return client;
}

const big = (bytes: number) => ({ name: 'echo', arguments: { message: 'x'.repeat(bytes) } });

describe('the host SDK refuses a payload over its maxPayloadBytes', () => {
  it('answers -32602 with the sizes, before the handler runs; a payload under the limit is served', async () => {
    const { host, seen } = hostWithCounter(1024);
    const client = clientFor(host);
    await expect(client.invoke({ name: 'size-check', event: 'tools/call', phase: 'request', payload: big(100) })).resolves.toMatchObject({ valid: true });
    const err = await client.invoke({ name: 'size-check', event: 'tools/call', phase: 'request', payload: big(2000) }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      kind: 'rpc',
      code: -32602,
      data: { interceptor: 'size-check', reason: 'payload too large', maxPayloadBytes: 1024 },
    });
    expect((err as Error).message).toMatch(/over this host's limit of 1024 bytes.*maxPayloadBytes/);
    expect(seen).toHaveLength(1);
  });

  it('defaults to 4 MB', () => {
    expect(new InterceptorHost().maxPayloadBytes).toBe(DEFAULT_MAX_PAYLOAD_BYTES);
    expect(DEFAULT_MAX_PAYLOAD_BYTES).toBe(4 * 1024 * 1024);
  });

  it('is routed by failOpen in the chain: fail-closed blocks with the reason, fail-open continues', async () => {
    const closed = new ChainRuntime([clientFor(hostWithCounter(1024).host, false)]);
    const blocked = await closed.run('tools/call', 'request', big(2000));
    expect(blocked.decision).toBe('block');
    expect(blocked.trace.blockedBy?.reason).toMatch(/fail-closed.*over this host's limit of 1024 bytes/);

    const { host, seen } = hostWithCounter(1024);
    const open = new ChainRuntime([clientFor(host, false)], { overrides: { 'limited/size-check': { failOpen: true } } });
    const passed = await open.run('tools/call', 'request', big(2000));
    expect(passed.decision).toBe('allow');
    expect(passed.trace.steps[0]).toMatchObject({ outcome: 'failed-open', error: { kind: 'rpc', code: -32602 } });
    expect(seen).toEqual([]);
  });
});

describe('the chain does not send a payload over RunOptions.maxPayloadBytes', () => {
  it('fails the step without invoking it; fail-closed blocks naming maxInvokePayloadBytes, fail-open continues', async () => {
    let invoked = 0;
    const counting = () => {
      invoked++;
      return { valid: true };
    };
    const runtime = new ChainRuntime([
      memServer('s', [
        ic(desc('closed', 'validation', { phases: ['request'] }), counting),
        ic(desc('open', 'validation', { phases: ['request'], failOpen: true }), counting),
      ]),
    ]);
    const blocked = await runtime.run('tools/call', 'request', big(5000), { maxPayloadBytes: 4096 });
    expect(invoked).toBe(0);
    expect(blocked.decision).toBe('block');
    expect(blocked.trace.blockedBy).toMatchObject({ interceptor: 'closed' });
    expect(blocked.trace.blockedBy?.reason).toMatch(/per-invoke limit of 4096 bytes \(maxInvokePayloadBytes\)/);
    const open = blocked.trace.steps.find((s) => s.name === 'open');
    expect(open).toMatchObject({ outcome: 'failed-open', error: { kind: 'rpc', data: { reason: 'payload too large', maxPayloadBytes: 4096 } } });

    const small = await runtime.run('tools/call', 'request', big(100), { maxPayloadBytes: 4096 });
    expect(small.decision).toBe('allow');
    expect(invoked).toBe(2);
  });

  it('a mutation that grows the payload past the limit is caught at the next step', async () => {
    const grow = () => ({ modified: true, payload: big(10_000) });
    const runtime = new ChainRuntime([
      memServer('s', [ic(desc('grow', 'mutation', { phases: ['request'] }), grow), ic(desc('check', 'validation', { phases: ['request'] }), allow)]),
    ]);
    const r = await runtime.run('tools/call', 'request', big(10), { maxPayloadBytes: 4096 });
    expect(r.decision).toBe('block');
    expect(r.trace.blockedBy).toMatchObject({ interceptor: 'check' });
  });
});

describe('gateway config: maxInvokePayloadBytes', () => {
  it('defaults to 4 MB and refuses a non-positive value with a clear error', () => {
    const base = { backend: { transport: 'stdio', name: 'b', command: 'x' } };
    const ok = parseGatewayConfig(base);
    expect(ok.ok && ok.config.maxInvokePayloadBytes).toBe(4 * 1024 * 1024);
    const bad = parseGatewayConfig({ ...base, maxInvokePayloadBytes: 0 });
    expect(bad.ok).toBe(false);
  });
});
