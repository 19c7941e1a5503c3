// Pauses when their call's surroundings go away, with real parts: the client's session closes while its
// request or its response is paused (the pause ends, the call is recorded once, as an error saying why),
// and a gateway that stops resolves every open pause by its timeout policy before draining.
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRecorder, type ExecutionRecord } from '../../src/shared/trace/execution';
import { Gateway } from '../../src/main/gateway';
import { waitFor } from '../gateway/helpers';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { breakpointsConfig, connect, nextPause, text } from './helpers';

describe('pauses and the lifecycle around them', { timeout: 120_000 }, () => {
  let gateway: Gateway | undefined;
  let recorder: MemoryRecorder;

  type Point = 'request-before-chain' | 'request-after-chain' | 'response-before-chain';
  const start = async (...at: Point[]) => startWith([{ method: 'tools/call', target: 'echo', at }]);
  const startWith = async (breakpoints: Parameters<typeof breakpointsConfig>[0], extra: Parameters<typeof breakpointsConfig>[1] = {}) => {
    recorder = new MemoryRecorder();
    gateway = new Gateway(breakpointsConfig(breakpoints, extra), { recorder });
    await gateway.start();
    return gateway;
  };
  const recordsOf = async (executionId: string): Promise<ExecutionRecord[]> => {
    await waitFor(() => recorder.executions.some((e) => e.id === executionId), 20_000, `record ${executionId}`);
    return recorder.executions.filter((e) => e.id === executionId);
  };
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
  });

  for (const at of ['request-before-chain', 'response-before-chain'] as const) {
    it(`the client's session closes while its ${at.split('-')[0]} is paused: the pause ends, recorded once as an error`, async () => {
      const gw = await start(at);
      const transport = new StreamableHTTPClientTransport(new URL(gw.url!), { requestInit: { headers: { Authorization: 'Bearer token-alice' } } });
      const client = new Client({ name: 'lifecycle-test', version: '1' }, { capabilities: {} });
      await client.connect(transport);
      const paused = nextPause(gw);
      const resolved = once(gw.breakpoints.pauses, 'resolved');
      const call = client.callTool({ name: 'echo', arguments: { message: 'left behind' } }).catch((err: unknown) => err);
      const view = await paused;
      // DELETE ends the session (closing the client alone only drops its streams: the session would live on).
      await transport.terminateSession();
      await client.close();
      const [{ record }] = (await resolved) as [{ record: { decision: string } }];
      expect(record.decision).toBe('cancelled');
      expect(await call).toBeInstanceOf(Error);
      const records = await recordsOf(view.executionId);
      expect(records).toHaveLength(1);
      expect(records[0]!.outcome).toBe('error');
      expect(records[0]!.pauses?.[0]?.decision).toBe('cancelled');
      expect(gw.breakpoints.pauses.size).toBe(0);
    });
  }

  it("a stepped chain is not cut off by the gateway's whole-chain deadline while it waits on a person", async () => {
    // Each step pause outlives the 300 ms chain deadline and continues by itself (onTimeout continue).
    const gw = await startWith([{ method: 'tools/call', target: 'echo', step: true, timeoutMs: 800 }], { timeoutMs: 300 });
    const client = await connect(gw);
    const result = await client.callTool({ name: 'echo', arguments: { message: 'slow reader' } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('Echo: slow reader');
    const rec = recorder.executions.findLast((e) => e.event === 'tools/call')!;
    expect(rec.requestTrace?.status).toBe('success');
    expect(rec.requestTrace?.deadlineExceeded).toBeUndefined();
    expect(rec.pauses!.some((p) => p.at === 'before-interceptor' && p.timedOut)).toBe(true);
    await client.close();
  });

  it('a gateway that stops resolves open pauses by their timeout policy first and pauses nothing more, so the call completes', async () => {
    // The released call would meet the after-chain point next: a second pause there would hold the drain.
    const gw = await start('request-before-chain', 'request-after-chain');
    const client = await connect(gw);
    const paused = nextPause(gw);
    const call = client.callTool({ name: 'echo', arguments: { message: 'released on stop' } });
    const view = await paused;
    const stopped = gw.stop();
    expect(text(await call)).toBe('Echo: released on stop');
    await stopped;
    gateway = undefined;
    const [rec] = await recordsOf(view.executionId);
    expect(rec!.pauses).toHaveLength(1);
    expect(rec!.pauses![0]).toMatchObject({ decision: 'continue', by: 'gateway stopping', timedOut: true });
    await client.close().catch(() => undefined);
  });
});
