// Hot reload of a running gateway, with real parts (server-everything over stdio, the sample interceptor
// server over stdio, an SDK v2 client over the HTTP listener): the client session survives, a request in
// flight during the reload finishes both phases on the chain it started on (its old interceptor server is
// kept alive for it and closed afterwards), and the next request runs on the new chain.
//
// On a loaded machine (CI, parallel test files) starting the sample server's process can take longer than
// the client's default 10 s initialize deadline: the server then failed discovery, the chain was fail-closed
// (A8) and the test failed on something it is not about. So the interceptor server clients here get a
// generous initialize deadline, and the test checks each step it relies on (the warm-up call passed, the
// long call is still in flight after the reload) instead of assuming it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { MemoryRecorder } from '../../src/shared/trace/execution';
import { Gateway } from '../../src/main/gateway';
import { InterceptorServerClient } from '../../src/main/interceptors/client';
import type { InterceptorServerEntry } from '../../src/shared/config';
import { waitFor } from '../gateway/helpers';
import { samplesGatewayConfig } from '../gateway/samples-gateway-config';
import { connectHttpClient } from '../app/mcp-client';

/** The gateway's own stdio interceptor server client, with an initialize deadline a loaded machine meets. */
function patientHandle(entry: InterceptorServerEntry): InterceptorServerClient {
  if (entry.transport !== 'stdio') throw new Error('this test runs the sample server over stdio');
  return new InterceptorServerClient({
    name: entry.name,
    failOpen: entry.failOpen ?? false,
    connection: { transport: 'stdio', command: entry.command, args: entry.arguments },
    initializeTimeoutMs: 60_000,
  });
}

const loggerStep = (trace: { steps: { server: string; name: string; skipped?: string; result?: unknown }[] } | undefined) =>
  trace?.steps.find((s) => s.server === 'samples' && s.name === 'request-logger');

describe('gateway hot reload', () => {
  let gateway: Gateway;
  let recorder: MemoryRecorder;
  let client: Client;
  const reloads: { restarted: boolean }[] = [];

  beforeAll(async () => {
    recorder = new MemoryRecorder();
    gateway = new Gateway(samplesGatewayConfig(), { recorder, createHandle: patientHandle });
    gateway.on('reloaded', (r) => reloads.push(r));
    await gateway.start();
    client = await connectHttpClient(gateway.url!);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
  });

  it('keeps the session, finishes in-flight requests on the old chain, runs new ones on the new chain', async () => {
    // Warm up: the request-logger sink runs in both phases under the first config.
    const warmUp = await client.callTool({ name: 'echo', arguments: { message: 'before' } });
    expect(JSON.stringify(warmUp), 'the warm-up call passed the chain').toContain('Echo: before');
    const oldInterception = gateway.interception;
    const oldServer = oldInterception.servers[0] as InterceptorServerClient;
    expect(oldServer.status.state).toBe('connected');

    // A 5-second call is in flight (its request phase ran; the backend reported progress after 1 s) when the
    // config changes: the reload has 4 s to finish before the call does (checked below, not assumed).
    let progressed = false;
    let settled = false;
    const inFlight = client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 5, steps: 5 } },
      { onprogress: () => (progressed = true) },
    );
    void inFlight.finally(() => (settled = true)).catch(() => undefined);
    await waitFor(() => progressed, 30_000, 'the long call to report progress');
    const { restarted } = await gateway.reload(samplesGatewayConfig({ 'samples/request-logger': { enabled: false } }));
    expect(settled, 'the long call is still in flight after the reload').toBe(false);
    expect(restarted).toBe(false);
    expect(reloads).toEqual([expect.objectContaining({ restarted: false })]);
    expect(gateway.interception).not.toBe(oldInterception);
    // Still serving the in-flight request: the old server stays connected until it is done.
    expect(oldServer.status.state).toBe('connected');

    const result = await inFlight;
    expect(JSON.stringify(result)).toContain('Long running operation completed');
    await gateway.recordsSettled(); // the record waits for the response-phase logger (off the answer's path)
    const longRecord = recorder.executions.find(
      (e) => e.event === 'tools/call' && JSON.stringify(e.requestReceived).includes('trigger-long-running-operation'),
    )!;
    // Both phases ran on the chain the request started on: the logger (now disabled) still recorded the response.
    // (Each step must be there and have run: a missing step is a failure, not a pass.)
    const requestLogger = loggerStep(longRecord.requestTrace);
    expect(requestLogger, 'the request-phase logger step').toBeDefined();
    expect(requestLogger!.skipped).toBeUndefined();
    expect(requestLogger!.result).toMatchObject({ type: 'sink', recorded: true });
    const responseLogger = loggerStep(longRecord.responseTrace);
    expect(responseLogger, 'the response-phase logger step').toBeDefined();
    expect(responseLogger!.skipped).toBeUndefined();
    expect(responseLogger!.result).toMatchObject({ type: 'sink', recorded: true });
    // Once it finished, the retired interception closed its server connections.
    await waitFor(() => oldServer.status.state === 'closed', 30_000, 'the retired interceptor server to close');

    // Same client session, new chain: the logger is disabled now.
    const afterCall = await client.callTool({ name: 'echo', arguments: { message: 'after' } });
    expect(JSON.stringify(afterCall), 'the call after the reload passed the new chain').toContain('Echo: after');
    await gateway.recordsSettled();
    const after = recorder.executions.findLast((e) => e.event === 'tools/call')!;
    expect(JSON.stringify(after.requestReceived)).toContain('after');
    // A disabled interceptor is still in the trace, skipped with its reason.
    expect(loggerStep(after.requestTrace)).toMatchObject({ skipped: 'disabled' });
    expect(new Set(recorder.executions.filter((e) => e.event === 'tools/call').map((e) => e.sessionId)).size).toBe(1);
    expect(gateway.counters().sessions).toBe(1);
  }, 120_000);
});
