// Interception rules, with the gateway in process on a stdio pair of streams, a real backend process and
// in-memory interceptor handles: interceptedEvents, the invoke context (principal, traceId, sessionId,
// timestamp), A9 for methods other than tools/call, response-phase blocks, the whole-chain timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRecorder } from '../../src/shared/trace/execution';
import { parseGatewayConfig } from '../../src/shared/config';
import { Gateway } from '../../src/main/gateway';
import { MemoryServerHandle, hangUntilAborted, type MemoryInvocation } from '../../src/main/interceptors/chain';
import { rawBackend } from './helpers';
import { PipeClient, startPipeGateway } from './pipe-gateway';

describe('interception rules', () => {
  const calls: MemoryInvocation[] = [];
  const recorder = new MemoryRecorder();
  const client = new PipeClient();
  let gateway: Gateway;

  beforeAll(async () => {
    const handle = new MemoryServerHandle('mem', [
      {
        descriptor: {
          name: 'observer',
          type: 'sink',
          hooks: [
            { events: ['*'], phase: 'request' },
            { events: ['*'], phase: 'response' },
          ],
        },
        handler: (call) => {
          calls.push(call);
          return { type: 'sink', recorded: true };
        },
      },
      {
        descriptor: { name: 'no-prompts', type: 'validation', hooks: [{ events: ['prompts/list'], phase: 'request' }] },
        handler: () => ({ type: 'validation', valid: false, severity: 'error', messages: [{ message: 'prompts are off limits', severity: 'error' }] }),
      },
      {
        descriptor: { name: 'no-secrets-out', type: 'validation', hooks: [{ events: ['tools/call'], phase: 'response' }] },
        handler: ({ payload }) =>
          JSON.stringify(payload).includes('classified')
            ? { type: 'validation', valid: false, severity: 'error', messages: [{ message: 'response leaks classified data', severity: 'error' }] }
            : { type: 'validation', valid: true },
      },
      {
        descriptor: { name: 'slowpoke', type: 'validation', hooks: [{ events: ['tools/call'], phase: 'request' }] },
        handler: ({ payload, signal }) => (JSON.stringify(payload).includes('hang') ? hangUntilAborted(signal) : { type: 'validation', valid: true }),
      },
    ]);
    gateway = await startPipeGateway(
      {
        interceptedEvents: ['tools/call', 'prompts/list'],
        listen: { transport: 'stdio', principal: 'carol' },
        timeoutMs: 300,
      },
      { recorder, client, handle },
    );
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('intercepts only interceptedEvents, with principal, traceId, sessionId and timestamp in the context', async () => {
    await client.request(1, 'tools/call', { name: 'echo', arguments: { x: 1 } });
    await client.request(2, 'tools/list');
    await gateway.recordsSettled(); // a record waits for its sinks (off the answer's path)
    const list = recorder.executions.find((e) => e.event === 'tools/list')!;
    expect(list.requestTrace).toBeUndefined();
    const call = recorder.executions.find((e) => e.event === 'tools/call')!;
    expect(call.requestTrace?.steps.map((s) => s.id)).toContain('mem/observer');
    const seen = calls.filter((c) => c.event === 'tools/call');
    expect(seen.map((c) => c.phase)).toEqual(['request', 'response']);
    const context = seen[0]!.context!;
    expect(context.principal).toEqual({ type: 'user', id: 'carol' });
    expect(context.traceId).toBe(call.id);
    expect(context.sessionId).toBe(recorder.sessions[0]!.id);
    expect(Date.parse(context.timestamp!)).not.toBeNaN();
  });

  it('answers a blocked method other than tools/call with -32602 naming interceptor, phase and reason (A9)', async () => {
    const res = (await client.request(3, 'prompts/list')) as { error: { code: number; message: string; data: Record<string, unknown> } };
    expect(res.error.code).toBe(-32602);
    expect(res.error.message).toBe('Blocked by mem/no-prompts (request): prompts are off limits');
    expect(res.error.data).toEqual({ interceptor: 'no-prompts', server: 'mem', event: 'prompts/list', phase: 'request', messages: ['prompts are off limits'] });
  });

  it('blocks in the response phase: the backend ran, the client gets the block', async () => {
    const res = (await client.request(4, 'tools/call', { name: 'echo', arguments: { note: 'classified' } })) as {
      result: { isError: boolean; content: { text: string }[] };
    };
    expect(res.result.isError).toBe(true);
    expect(res.result.content[0]!.text).toBe('Blocked by mem/no-secrets-out (response): response leaks classified data');
    const rec = recorder.executions.findLast((e) => e.event === 'tools/call')!;
    expect(rec.outcome).toBe('blocked');
    expect(JSON.stringify(rec.responseReceived)).toContain('classified');
  });

  it('blocks when the whole chain runs past timeoutMs', async () => {
    const t0 = Date.now();
    const res = (await client.request(5, 'tools/call', { name: 'echo', arguments: { please: 'hang' } })) as {
      result: { isError: boolean; content: { text: string }[] };
    };
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(res.result.isError).toBe(true);
    expect(res.result.content[0]!.text).toMatch(/^Blocked by mem\/slowpoke \(request\)/);
    expect(recorder.executions.findLast((e) => e.event === 'tools/call')?.requestTrace?.status).toBe('timeout');
  });
});

describe('recording switch', () => {
  it('hands nothing to the recorder when the config says recording: false', () => {
    const parsed = parseGatewayConfig({ backend: rawBackend(), recording: { enabled: false } });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(new Gateway(parsed.config, { recorder: new MemoryRecorder() }).recorder).toBeNull();
    const on = parseGatewayConfig({ backend: rawBackend() });
    if (!on.ok) throw new Error(JSON.stringify(on.errors));
    expect(new Gateway(on.config, { recorder: new MemoryRecorder() }).recorder).not.toBeNull();
  });
});
