// A response-phase sink is off the call's path too ([path-speed], A4: sinks never block): the answer goes to the
// client while the sink runs, and the record waits for the sink, at most RECORD_WAITS_FOR_SINKS_MS after the
// call's end. No clock decides the first case: the sink records only once it sees, in the captured messages,
// that the gateway has answered the client, which it waits for in vain when the answer waits for it.
// In process on a stdio pair of streams, with a real backend process and an in-memory interceptor handle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRecorder, type ExecutionRecord } from '../../src/shared/trace/execution';
import type { Gateway } from '../../src/main/gateway';
import { RECORD_WAITS_FOR_SINKS_MS } from '../../src/main/gateway/session/exchanges';
import { MemoryServerHandle } from '../../src/main/interceptors/chain';
import { waitFor } from './helpers';
import { PipeClient, startPipeGateway } from './pipe-gateway';

describe('a response-phase sink runs while the answer goes out', () => {
  const recorder = new MemoryRecorder();
  const client = new PipeClient();
  let gateway: Gateway;
  /** Sink invocations still waiting, so that the test can end the hanging ones. */
  const hanging: (() => void)[] = [];

  const answered = (traceId: string) =>
    recorder.messages.some((m) => m.executionId === traceId && m.side === 'client' && m.direction === 'out' && m.kind === 'response');
  const recordOf = async (id: number): Promise<ExecutionRecord> => {
    await waitFor(() => recorder.executions.some((e) => e.jsonrpcId === id), 5_000, `the record of call ${id}`);
    return recorder.executions.find((e) => e.jsonrpcId === id)!;
  };

  beforeAll(async () => {
    const handle = new MemoryServerHandle('mem', [
      {
        descriptor: { name: 'check', type: 'validation', hooks: [{ events: ['tools/call'], phase: 'response' }] },
        handler: () => ({ type: 'validation', valid: true }),
      },
      {
        // "answered": records once the gateway has sent the answer to the client. "hang": never answers by itself.
        descriptor: { name: 'audit-log', type: 'sink', hooks: [{ events: ['tools/call'], phase: 'response' }] },
        handler: async ({ payload, context }) => {
          const text = (payload as { content: { text: string }[] }).content[0]!.text;
          const traceId = context!.traceId!;
          if (text.includes('hang')) await new Promise<void>((resolve) => hanging.push(resolve));
          else await waitFor(() => answered(traceId), 2_500, 'the gateway to have answered the client', 5);
          return { type: 'sink', recorded: true };
        },
      },
    ]);
    gateway = await startPipeGateway(
      {
        overrides: { 'mem/audit-log': { timeoutMs: 20_000 } },
      },
      { recorder, client, handle },
    );
  });
  afterAll(async () => {
    for (const end of hanging) end();
    await gateway?.stop();
  });

  it('answers the client while the sink runs; the record then has the sink in its place in the trace', async () => {
    const res = await client.request(1, 'tools/call', { name: 'echo', arguments: { until: 'answered' } });
    expect(res.result).toBeDefined();
    const rec = await recordOf(1);
    expect(rec.responseTrace!.steps.map((s) => s.id)).toEqual(['mem/check', 'mem/audit-log']);
    expect(rec.responseTrace!.steps[1]).toMatchObject({ outcome: 'recorded', type: 'sink' });
    expect(rec.outcome).toBe('allow');
    expect(recorder.executions.filter((e) => e.jsonrpcId === 1)).toHaveLength(1);
  });

  it('a sink that hangs holds neither the answer nor, past the cap, the record: it is recorded as not recorded', async () => {
    const t0 = performance.now();
    const res = await client.request(2, 'tools/call', { name: 'echo', arguments: { say: 'hang' } });
    expect(res.result).toBeDefined();
    const answeredAfter = performance.now() - t0;
    const rec = await recordOf(2);
    const recordedAfter = performance.now() - t0;
    expect(answeredAfter).toBeLessThan(RECORD_WAITS_FOR_SINKS_MS);
    expect(recordedAfter).toBeGreaterThanOrEqual(RECORD_WAITS_FOR_SINKS_MS - 50);
    const step = rec.responseTrace!.steps.find((s) => s.id === 'mem/audit-log')!;
    expect(step).toMatchObject({ outcome: 'not-recorded', result: { type: 'sink', recorded: false }, error: { kind: 'timeout' } });
    expect(step.error!.message).toContain('recorded without it');
    expect(step.input).toEqual(rec.responseReceived);
    // The sink's late answer changes nothing: the call stays recorded once, as it was.
    hanging.shift()!();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(recorder.executions.filter((e) => e.jsonrpcId === 2)).toHaveLength(1);
    expect(rec.responseTrace!.steps.find((s) => s.id === 'mem/audit-log')!.outcome).toBe('not-recorded');
  });

  it('a gateway stopping waits for a hanging sink no longer than the cap, and records the call', async () => {
    const res = await client.request(3, 'tools/call', { name: 'echo', arguments: { say: 'hang' } });
    expect(res.result).toBeDefined();
    const t0 = performance.now();
    await gateway.stop({ drainMs: 50 });
    expect(performance.now() - t0).toBeLessThan(RECORD_WAITS_FOR_SINKS_MS + 2_000);
    const rec = recorder.executions.find((e) => e.jsonrpcId === 3);
    expect(rec?.responseTrace!.steps.find((s) => s.id === 'mem/audit-log')).toMatchObject({ outcome: 'not-recorded' });
  });
});
