// Breakpoints, the rest of the policy with real parts: timeouts (continue, block), a breakpoint on a chain
// outcome ("when pii-validator blocks"), the response side (edit the backend's result), breakpoints hot-
// reloaded with the config and set live, and a client that cancels while paused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRecorder, type ExecutionRecord } from '../../src/shared/trace/execution';
import { BreakpointSchema } from '../../src/shared/config';
import { Gateway } from '../../src/main/gateway';
import { waitFor } from '../gateway/helpers';
import { breakpointsConfig, connect, nextPause, text } from './helpers';
import type { Client } from '@modelcontextprotocol/client';

describe('breakpoint policy in a live gateway', { timeout: 120_000 }, () => {
  let gateway: Gateway;
  let recorder: MemoryRecorder;
  let alice: Client;

  const recordOf = async (executionId: string): Promise<ExecutionRecord> => {
    await waitFor(() => recorder.executions.some((e) => e.id === executionId), 20_000, `record ${executionId}`);
    return recorder.executions.find((e) => e.id === executionId)!;
  };

  beforeAll(async () => {
    recorder = new MemoryRecorder();
    gateway = new Gateway(
      breakpointsConfig([
        { id: 'echo-times-out', method: 'tools/call', target: 'echo', timeoutMs: 300 },
        { id: 'sum-blocks', method: 'tools/call', target: 'get-sum', timeoutMs: 300, onTimeout: 'block' },
        { id: 'pii', when: { blockedBy: 'pii-validator' }, method: 'tools/*' },
      ]),
      { recorder },
    );
    await gateway.start();
    alice = await connect(gateway);
  });
  afterAll(async () => {
    await alice?.close();
    await gateway?.stop();
  });

  it('a pause nobody decides continues by itself after its timeout, and the trace says so', async () => {
    const paused = nextPause(gateway);
    const call = alice.callTool({ name: 'echo', arguments: { message: 'on my own' } });
    const view = await paused;
    expect(view).toMatchObject({ timeoutMs: 300, onTimeout: 'continue' });
    expect(text(await call)).toBe('Echo: on my own');
    const rec = await recordOf(view.executionId);
    expect(rec.outcome).toBe('allow');
    expect(rec.pauses![0]).toMatchObject({ decision: 'continue', by: 'timeout', timedOut: true });
  });

  it('onTimeout block: the call is blocked by the breakpoint when nobody decides', async () => {
    const paused = nextPause(gateway);
    const call = alice.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } });
    const view = await paused;
    const result = await call;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Blocked by breakpoint/sum-blocks (request): Paused at breakpoint "sum-blocks" for 300 ms with no decision');
    const rec = await recordOf(view.executionId);
    expect(rec.outcome).toBe('blocked');
    expect(rec.blockedBy?.reason).toContain('timed out (onTimeout: block)');
    expect(rec.pauses![0]).toMatchObject({ decision: 'block', by: 'timeout', timedOut: true });
  });

  it('when pii-validator blocks: pauses after the chain with its trace; continue lets the block stand', async () => {
    // Only the outcome breakpoint concerns this tool: the first pause is after the request chain.
    const paused = nextPause(gateway);
    const call = alice.callTool({ name: 'get-env', arguments: { note: 'my SSN is 123-45-6789' } });
    const view = await paused;
    expect(view.at).toBe('request-after-chain');
    expect(view.breakpoint).toBe('pii');
    expect(view.requestTrace?.blockedBy).toMatchObject({ server: 'samples', interceptor: 'pii-validator' });
    gateway.breakpoints.pauses.decide(view.id, { kind: 'continue' }, 'you');
    const result = await call;
    expect(text(result)).toBe('Blocked by samples/pii-validator (request): Payload may contain Social Security Number data');
    const rec = await recordOf(view.executionId);
    expect(rec.blockedBy?.interceptor).toBe('pii-validator');
  });

  it('when pii-validator blocks: an edit after the chain overrides the block (recorded as an edit by you)', async () => {
    const paused = nextPause(gateway);
    const call = alice.callTool({ name: 'get-env', arguments: { note: 'my SSN is 123-45-6789' } });
    const view = await paused;
    gateway.breakpoints.pauses.decide(view.id, { kind: 'edit', payload: { name: 'get-env', arguments: {} } }, 'you');
    const result = await call;
    expect(result.isError).toBeFalsy();
    const rec = await recordOf(view.executionId);
    expect(rec.blockedBy).toBeUndefined();
    expect(rec.outcome).toBe('mutated');
    expect(rec.requestForwarded).toEqual({ name: 'get-env', arguments: {} });
  });

  it('breakpoints hot-reload with the config; live ones pause the response side, where an edit replaces the result', async () => {
    await gateway.reload(breakpointsConfig([]));
    expect(text(await alice.callTool({ name: 'echo', arguments: { message: 'no pause now' } }))).toBe('Echo: no pause now');

    gateway.breakpoints.setLive([BreakpointSchema.parse({ id: 'live', method: 'tools/call', target: 'echo', at: 'response-before-chain' })]);
    const paused = nextPause(gateway);
    const call = alice.callTool({ name: 'echo', arguments: { message: 'from the backend' } });
    const view = await paused;
    expect(view.at).toBe('response-before-chain');
    expect(view.payload).toMatchObject({ content: [{ type: 'text', text: 'Echo: from the backend' }] });
    expect(view.requestTrace?.event).toBe('tools/call');
    gateway.breakpoints.pauses.decide(view.id, { kind: 'edit', payload: { content: [{ type: 'text', text: 'rewritten result' }] } }, 'you');
    expect(text(await call)).toBe('rewritten result');
    const rec = await recordOf(view.executionId);
    expect(rec.responseReceived).toMatchObject({ content: [{ text: 'Echo: from the backend' }] });
    expect(rec.responseReturned).toMatchObject({ content: [{ text: 'rewritten result' }] });
    expect(rec.pauses![0]).toMatchObject({ at: 'response-before-chain', decision: 'edit' });
    gateway.breakpoints.setLive([]);
  });

  it('a breakpoint with step: continue at its point still steps the chain; continue at a step runs the rest', async () => {
    gateway.breakpoints.setLive([BreakpointSchema.parse({ id: 'stepper', method: 'tools/call', target: 'echo', step: true })]);
    let paused = nextPause(gateway);
    const call = alice.callTool({ name: 'echo', arguments: { message: 'stepped by the breakpoint' } });
    let view = await paused;
    expect(view.at).toBe('request-before-chain');
    paused = nextPause(gateway);
    gateway.breakpoints.pauses.decide(view.id, { kind: 'continue' }, 'you');
    view = await paused;
    expect(view).toMatchObject({ at: 'before-interceptor', interceptor: 'samples/email-redactor', breakpoint: 'step' });
    gateway.breakpoints.pauses.decide(view.id, { kind: 'continue' }, 'you');
    expect(text(await call)).toBe('Echo: stepped by the breakpoint');
    const rec = await recordOf(view.executionId);
    expect(rec.pauses!.map((p) => p.at)).toEqual(['request-before-chain', 'before-interceptor']);
    gateway.breakpoints.setLive([]);
  });

  it('block while stepping: the chain stops before that interceptor, the call is blocked by the step', async () => {
    gateway.breakpoints.setLive([BreakpointSchema.parse({ method: 'tools/call', target: 'echo', step: true })]);
    let paused = nextPause(gateway);
    const call = alice.callTool({ name: 'echo', arguments: { message: 'a@example.com' } });
    let view = await paused;
    for (let i = 0; i < 5 && view.interceptor !== 'samples/pii-validator'; i++) {
      paused = nextPause(gateway);
      gateway.breakpoints.pauses.decide(view.id, { kind: 'step' }, 'you');
      view = await paused;
    }
    expect(view.interceptor).toBe('samples/pii-validator');
    gateway.breakpoints.pauses.decide(view.id, { kind: 'block', message: 'stopped mid-chain' }, 'you');
    const result = await call;
    expect(text(result)).toBe('Blocked by breakpoint/step (request): stopped mid-chain');
    const rec = await recordOf(view.executionId);
    expect(rec.outcome).toBe('blocked');
    expect(rec.requestForwarded).toBeUndefined();
    gateway.breakpoints.setLive([]);
  });

  it('a client that cancels while paused: the pause goes away and the call is recorded once', async () => {
    gateway.breakpoints.setLive([BreakpointSchema.parse({ id: 'cancel-me', method: 'tools/call', target: 'echo' })]);
    const controller = new AbortController();
    const paused = nextPause(gateway);
    const resolved = new Promise<{ id: string }>((resolve) => gateway.breakpoints.pauses.once('resolved', resolve));
    const call = alice.callTool({ name: 'echo', arguments: { message: 'never mind' } }, { signal: controller.signal });
    const view = await paused;
    controller.abort();
    await expect(call).rejects.toThrow();
    expect((await resolved).id).toBe(view.id);
    expect(gateway.breakpoints.pauses.size).toBe(0);
    const rec = await recordOf(view.executionId);
    expect(rec.outcome).toBe('error');
    expect(rec.pauses?.[0]).toMatchObject({ decision: 'cancelled', by: 'client' });
    expect(recorder.executions.filter((e) => e.id === view.executionId)).toHaveLength(1);
    gateway.breakpoints.setLive([]);
  });
});
