// Issue 15, done when: "a 256 KB argument through the demo gateway's samples is answered in well
// under a second, and another client's calls are not delayed by it". A real gateway in the demo's
// shape (server-everything behind `serve-samples` over stdio, HTTP listener), two real clients: A
// sends a 256 KB argument built to be worst-case for the samples' patterns, B sends small calls at
// the same time. B's calls are answered while A's is in flight; A's verdict is right. (How long A
// takes is a ratio in `npm run bench -- regex`, not asserted here.)
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/main/gateway';
import { samplesGatewayConfig } from './samples-gateway-config';

async function connect(gateway: Gateway, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url!)));
  return client;
}

const text = (r: unknown) => (r as { content: { text?: string }[] }).content[0]?.text ?? '';

// In process (`"transport": "bundled"`) the samples share the gateway's thread: the large call's scans must
// still leave it (worker threads) so that B is not delayed.
describe.each(['stdio', 'bundled'] as const)(
  'a 256 KB argument through the demo gateway (samples %s) does not hold other clients hostage',
  { timeout: 120_000 },
  (where) => {
    let gateway: Gateway;
    let a: Client;
    let b: Client;

    beforeAll(async () => {
      gateway = new Gateway(samplesGatewayConfig({}, where));
      await gateway.start();
      [a, b] = await Promise.all([connect(gateway, 'client-a'), connect(gateway, 'client-b')]);
      // Warm: interceptor server started and discovered, backend up.
      await b.callTool({ name: 'echo', arguments: { message: 'warm' } });
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      await gateway?.stop();
    });

    it("answers A's 256 KB call with the right verdict while B's small calls go through", async () => {
      const events: string[] = [];
      // Letters without '@' (quadratic for the reference e-mail pattern), then one address to redact.
      const big = `${'a'.repeat(256 * 1024)} write to carol@example.org`;
      const bigCall = a.callTool({ name: 'echo', arguments: { message: big } }, { timeout: 60_000 }).then((r) => {
        events.push('A answered');
        return r;
      });
      const small: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await b.callTool({ name: 'echo', arguments: { message: `small ${i}` } });
        small.push(text(r));
        events.push(`B answered ${i}`);
      }
      const r = await bigCall;
      expect(small).toEqual(['Echo: small 0', 'Echo: small 1', 'Echo: small 2']);
      expect((r as { isError?: boolean }).isError).toBeFalsy();
      expect(text(r).endsWith('write to [EMAIL_REDACTED]')).toBe(true);
      // On a shared, single-threaded interceptor server B's first call waited behind A's (30 s and more).
      expect(events.indexOf('B answered 0'), events.join(' → ')).toBeLessThan(events.indexOf('A answered'));
    });
  },
);

describe('maxInvokePayloadBytes in the gateway config', { timeout: 120_000 }, () => {
  it('blocks a call whose payload is over the limit with a message naming it (samples are fail-closed)', async () => {
    const config = { ...samplesGatewayConfig(), maxInvokePayloadBytes: 2048 };
    const gateway = new Gateway(config);
    await gateway.start();
    const client = await connect(gateway, 'client-limit');
    try {
      const small = await client.callTool({ name: 'echo', arguments: { message: 'fits' } });
      expect(text(small)).toBe('Echo: fits');
      const big = await client.callTool({ name: 'echo', arguments: { message: 'x'.repeat(4096) } });
      expect((big as { isError?: boolean }).isError).toBe(true);
      expect(text(big)).toMatch(/^Blocked by samples\/.*over the per-invoke limit of 2048 bytes \(maxInvokePayloadBytes\)/);
    } finally {
      await client.close();
      await gateway.stop();
    }
  });
});
