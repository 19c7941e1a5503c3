// Hot reload of a running gateway, with real parts (server-everything over stdio, the sample interceptor
// server over stdio, an SDK v2 client over the HTTP listener): the client session survives, a request in
// flight during the reload finishes both phases on the chain it started on (its old interceptor server is
// kept alive for it and closed afterwards), and the next request runs on the new chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { MemoryRecorder } from '../../src/shared/trace/execution';
import { Gateway } from '../../src/main/gateway';
import type { InterceptorServerClient } from '../../src/main/interceptors/client';
import { waitFor } from '../gateway/helpers';
import { samplesGatewayConfig } from '../gateway/samples-gateway-config';
import { connectHttpClient } from '../app/mcp-client';

const loggerStep = (trace: { steps: { server: string; name: string; skipped?: string; result?: unknown }[] } | undefined) =>
  trace?.steps.find((s) => s.server === 'samples' && s.name === 'request-logger');

describe('gateway hot reload', () => {
  let gateway: Gateway;
  let recorder: MemoryRecorder;
  let client: Client;
  const reloads: { restarted: boolean }[] = [];

  beforeAll(async () => {
    recorder = new MemoryRecorder();
    gateway = new Gateway(samplesGatewayConfig(), { recorder });
    gateway.on('reloaded', (r) => reloads.push(r));
    await gateway.start();
    client = await connectHttpClient(gateway.url!);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
  });

  it('keeps the session, finishes in-flight requests on the old chain, runs new ones on the new chain', async () => {
    // Warm up: the request-logger sink runs in both phases under the first config.
    await client.callTool({ name: 'echo', arguments: { message: 'before' } });
    const oldInterception = gateway.interception;
    const oldServer = oldInterception.servers[0] as InterceptorServerClient;
    expect(oldServer.status.state).toBe('connected');

    // A 2-second call is in flight (its request phase ran; the backend reported progress) when the config changes.
    let progressed = false;
    const inFlight = client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 2, steps: 2 } },
      { onprogress: () => (progressed = true) },
    );
    await waitFor(() => progressed, 10_000, 'the long call to report progress');
    const { restarted } = await gateway.reload(samplesGatewayConfig({ 'samples/request-logger': { enabled: false } }));
    expect(restarted).toBe(false);
    expect(reloads).toEqual([expect.objectContaining({ restarted: false })]);
    expect(gateway.interception).not.toBe(oldInterception);
    // Still serving the in-flight request: the old server stays connected until it is done.
    expect(oldServer.status.state).toBe('connected');

    const result = await inFlight;
    expect(JSON.stringify(result)).toContain('Long running operation completed');
    const longRecord = recorder.executions.find((e) => e.event === 'tools/call' && JSON.stringify(e.requestReceived).includes('trigger-long-running-operation'))!;
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
    await waitFor(() => oldServer.status.state === 'closed', 10_000, 'the retired interceptor server to close');

    // Same client session, new chain: the logger is disabled now.
    await client.callTool({ name: 'echo', arguments: { message: 'after' } });
    const after = recorder.executions.findLast((e) => e.event === 'tools/call')!;
    expect(JSON.stringify(after.requestReceived)).toContain('after');
    // A disabled interceptor is still in the trace, skipped with its reason.
    expect(loggerStep(after.requestTrace)).toMatchObject({ skipped: 'disabled' });
    expect(new Set(recorder.executions.filter((e) => e.event === 'tools/call').map((e) => e.sessionId)).size).toBe(1);
    expect(gateway.counters().sessions).toBe(1);
  }, 60_000);
});

