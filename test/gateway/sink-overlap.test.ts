// A request-phase sink is off the call's path ([path-speed], A4: sinks never block): the gateway forwards the
// request while the sink runs, and answers without waiting for it; only the call's record waits (capped). No
// clock is read: the sink itself checks what the gateway has done meanwhile, from the captured messages. Were
// the sink awaited before forwarding, it would wait in vain until its timeout and be recorded as not recorded.
// In process on a stdio pair of streams, with a real backend process and an in-memory interceptor handle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRecorder } from '../../src/shared/trace/execution';
import type { Gateway } from '../../src/main/gateway';
import { RECORD_WAITS_FOR_SINKS_MS } from '../../src/main/gateway/session/exchanges';
import { MemoryServerHandle } from '../../src/main/interceptors/chain';
import { waitFor } from './helpers';
import { PipeClient, startPipeGateway } from './pipe-gateway';

describe('a request-phase sink runs beside the backend call', () => {
  const recorder = new MemoryRecorder();
  const client = new PipeClient();
  let gateway: Gateway;

  /** Whether a captured message of this execution matches: the sink's view of what the gateway did. */
  const seen = (traceId: string, side: string, direction: string, kind: string) =>
    recorder.messages.some((m) => m.executionId === traceId && m.side === side && m.direction === direction && m.kind === kind);

  beforeAll(async () => {
    const handle = new MemoryServerHandle('mem', [
      {
        descriptor: { name: 'check', type: 'validation', hooks: [{ events: ['tools/call'], phase: 'request' }] },
        handler: () => ({ type: 'validation', valid: true }),
      },
      {
        // Records only once the gateway has sent the request on to the backend ("forwarded"), or once the
        // backend's answer has reached the gateway ("answered"): impossible while the sink blocks the call.
        descriptor: { name: 'audit-log', type: 'sink', hooks: [{ events: ['tools/call'], phase: 'request' }] },
        handler: async ({ payload, context }) => {
          const until = (payload as { arguments: { until: string } }).arguments.until;
          const traceId = context!.traceId!;
          if (until === 'never') await new Promise((resolve) => setTimeout(resolve, 3_000));
          await waitFor(
            () => (until === 'answered' ? seen(traceId, 'backend', 'in', 'response') : seen(traceId, 'backend', 'out', 'request')),
            2_500,
            `the gateway to have ${until} the call`,
            5,
          );
          return { type: 'sink', recorded: true };
        },
      },
    ]);
    gateway = await startPipeGateway(
      {
        overrides: { 'mem/audit-log': { timeoutMs: 4_000 } },
      },
      { recorder, client, handle },
    );
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('forwards the request while the sink runs; the sink is recorded in its place in the trace', async () => {
    const res = await client.request(1, 'tools/call', { name: 'echo', arguments: { until: 'forwarded' } });
    expect(res.result).toBeDefined();
    const rec = recorder.executions.find((e) => e.jsonrpcId === 1)!;
    expect(rec).toBeDefined();
    expect(rec.requestTrace!.steps.map((s) => s.id)).toEqual(['mem/check', 'mem/audit-log']);
    expect(rec.requestTrace!.steps[1]).toMatchObject({ outcome: 'recorded', type: 'sink' });
  });

  it('a sink still running when the backend answers holds neither the answer nor the call: its record waits for it', async () => {
    const res = await client.request(2, 'tools/call', { name: 'echo', arguments: { until: 'answered' } });
    expect(res.result).toBeDefined();
    // The sink records once the backend has answered: the record waits for its step, not the client.
    await gateway.recordsSettled();
    const rec = recorder.executions.find((e) => e.jsonrpcId === 2)!;
    expect(rec).toBeDefined();
    expect(rec.requestTrace!.steps.find((s) => s.id === 'mem/audit-log')).toMatchObject({ outcome: 'recorded' });
    expect(rec.outcome).toBe('allow');
  });

  it('a request-phase sink that hangs does not hold the answer; the call is recorded without it at the cap', async () => {
    const t0 = performance.now();
    const res = await client.request(4, 'tools/call', { name: 'echo', arguments: { until: 'never' } });
    expect(res.result).toBeDefined();
    expect(performance.now() - t0).toBeLessThan(RECORD_WAITS_FOR_SINKS_MS);
    await gateway.recordsSettled();
    const rec = recorder.executions.find((e) => e.jsonrpcId === 4)!;
    expect(rec.requestTrace!.steps.find((s) => s.id === 'mem/audit-log')).toMatchObject({ outcome: 'not-recorded', error: { kind: 'timeout' } });
  });

  it('a gateway stopping mid-call waits for a sink still running, then records the call whole', async () => {
    // The backend takes 10 s; the sink waits for its answer, which never comes (it gives up after 2.5 s).
    client.input.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow', arguments: { ms: 10_000, until: 'answered' } } })}\n`,
    );
    await waitFor(() => recorder.messages.some((m) => m.jsonrpcId === 3 && m.side === 'backend' && m.direction === 'out'), 10_000, 'the call forwarded');
    await gateway.stop({ drainMs: 50 });
    const rec = recorder.executions.find((e) => e.jsonrpcId === 3);
    expect(rec?.outcome).toBe('error');
    expect(rec?.requestTrace!.steps.map((s) => s.id)).toEqual(['mem/check', 'mem/audit-log']);
    expect(rec?.requestTrace!.steps[1]).toMatchObject({ outcome: 'not-recorded' });
  });
});
