// Sinks are never on the critical path ([path-speed]): the gateway answers its client while a sink is
// still running, and records the exchange once the sink has answered, with the sink's step where its pass
// stands in the trace (request: after the validations; response: before the mutations). A sink that never
// answers still ends: under the whole-chain deadline, or when the gateway stops (then the record is made
// without it). Gateway in process on a pair of streams, a real backend process, in-memory interceptors.
import { afterEach, describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../../src/shared/config';
import { MemoryRecorder } from '../../src/shared/trace/execution';
import { Gateway } from '../../src/main/gateway';
import { MemoryServerHandle, type MemoryInterceptor } from '../../src/main/interceptors/chain';
import { PipeClient, rawBackend, waitFor } from './helpers';

/** A sink whose answers the test releases: nothing here depends on how long anything takes. */
class HeldSink {
  readonly calls: string[] = [];
  private releases: (() => void)[] = [];
  interceptor(name = 'held-sink'): MemoryInterceptor {
    return {
      descriptor: {
        name,
        type: 'sink',
        hooks: [
          { events: ['tools/call'], phase: 'request' },
          { events: ['tools/call'], phase: 'response' },
        ],
      },
      handler: ({ phase }) => {
        this.calls.push(phase);
        return new Promise((resolve) => this.releases.push(() => resolve({ type: 'sink', recorded: true })));
      },
    };
  }
  releaseAll(): void {
    for (const release of this.releases.splice(0)) release();
  }
}

const allow: MemoryInterceptor = {
  descriptor: { name: 'allow-all', type: 'validation', hooks: [{ events: ['tools/call'], phase: 'request' }] },
  handler: () => ({ type: 'validation', valid: true }),
};

const stamp: MemoryInterceptor = {
  descriptor: { name: 'stamp', type: 'mutation', hooks: [{ events: ['tools/call'], phase: 'response' }] },
  handler: ({ payload }) => ({ type: 'mutation', modified: true, payload: { ...(payload as Record<string, unknown>), stamped: true } }),
};

async function startGateway(interceptors: MemoryInterceptor[], extra: Record<string, unknown> = {}) {
  const recorder = new MemoryRecorder();
  const client = new PipeClient();
  const handle = new MemoryServerHandle('mem', interceptors);
  const parsed = parseGatewayConfig({
    backend: rawBackend(),
    staticInterceptors: [{ transport: 'stdio', name: 'mem', command: 'unused' }],
    listen: { transport: 'stdio' },
    ...extra,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const gateway = new Gateway(parsed.config, { recorder, stdio: { input: client.input, output: client.output }, createHandle: () => handle });
  await gateway.start();
  await client.request('init', 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } });
  return { gateway, recorder, client };
}

describe('sinks off the critical path', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it('answers the client while its sinks still run, then records the call with their steps in pass order', async () => {
    const sink = new HeldSink();
    const { gateway, recorder, client } = await startGateway([allow, sink.interceptor(), stamp]);
    stop = () => gateway.stop();
    const t0 = performance.now();
    const res = (await client.request(1, 'tools/call', { name: 'echo', arguments: { x: 1 } })) as { result: Record<string, unknown> };
    const answeredMs = performance.now() - t0;
    // Answered (and mutated by the response chain) with both sinks still waiting.
    expect(res.result.stamped).toBe(true);
    expect(sink.calls).toEqual(['request', 'response']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(recorder.executions.filter((e) => e.event === 'tools/call')).toHaveLength(0);
    sink.releaseAll();
    await waitFor(() => recorder.executions.some((e) => e.event === 'tools/call'), 5000, 'the record of the call');
    // The call lasted what its client waited, not what the record waited for.
    expect(recorder.executions.find((e) => e.event === 'tools/call')!.durationMs).toBeLessThanOrEqual(answeredMs);
    const rec = recorder.executions.find((e) => e.event === 'tools/call')!;
    expect(recorder.executions.filter((e) => e.event === 'tools/call')).toHaveLength(1);
    expect(rec.outcome).toBe('mutated');
    const ran = (steps: { name: string; outcome: string }[]) => steps.filter((s) => s.outcome !== 'skipped');
    expect(ran(rec.requestTrace!.steps).map((s) => [s.name, s.outcome])).toEqual([
      ['allow-all', 'allowed'],
      ['held-sink', 'recorded'],
    ]);
    // The response pass order (A2): validations, sinks, mutations, whichever answered first.
    expect(ran(rec.responseTrace!.steps).map((s) => s.name)).toEqual(['held-sink', 'stamp']);
  });

  it('a sink that never answers ends at the whole-chain deadline, and the call is recorded with it not-recorded', async () => {
    const sink = new HeldSink();
    const { gateway, recorder, client } = await startGateway([sink.interceptor()], { timeoutMs: 300 });
    stop = () => gateway.stop();
    const res = (await client.request(2, 'tools/call', { name: 'echo', arguments: { x: 2 } })) as { result: Record<string, unknown> };
    expect(res.result).toBeDefined();
    await waitFor(() => recorder.executions.some((e) => e.event === 'tools/call'), 5000, 'the record of the call');
    const rec = recorder.executions.find((e) => e.event === 'tools/call')!;
    expect(rec.outcome).toBe('allow');
    for (const trace of [rec.requestTrace!, rec.responseTrace!]) {
      expect(trace.steps.map((s) => [s.name, s.outcome, s.error?.kind])).toEqual([['held-sink', 'not-recorded', 'timeout']]);
    }
    sink.releaseAll();
  });

  it('a stopping gateway records a call whose sink never answers (without that sink), and stops', async () => {
    const sink = new HeldSink();
    const { gateway, recorder, client } = await startGateway([allow, sink.interceptor()]);
    await client.request(3, 'tools/call', { name: 'echo', arguments: { x: 3 } });
    expect(recorder.executions.filter((e) => e.event === 'tools/call')).toHaveLength(0);
    await gateway.stop();
    const recs = recorder.executions.filter((e) => e.event === 'tools/call');
    expect(recs).toHaveLength(1);
    expect(recs[0]!.requestTrace!.steps.map((s) => s.name)).toContain('allow-all');
    sink.releaseAll();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(recorder.executions.filter((e) => e.event === 'tools/call')).toHaveLength(1);
  });
});
