// Breakpoints end to end, headless: a real v2 client over the gateway's HTTP listener, the real gateway,
// server-everything as the backend and the sample interceptor server. Each pause is decided through the
// gateway's own registry (what the console's API and the control endpoint call) and the execution's
// record is checked for the pause, the decision, who took it and the edit's before/after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRecorder, type ExecutionRecord } from '../../src/shared/trace/execution';
import { Gateway } from '../../src/main/gateway';
import { PauseDecisionError } from '../../src/main/gateway/breakpoints/pause-registry';
import { waitFor } from '../gateway/helpers';
import { breakpointsConfig, connect, nextPause, text } from './helpers';
import type { Client } from '@modelcontextprotocol/client';

describe('breakpoints in a live gateway', { timeout: 120_000 }, () => {
  let gateway: Gateway;
  let recorder: MemoryRecorder;
  let alice: Client;
  let bob: Client;

  const recordOf = async (executionId: string): Promise<ExecutionRecord> => {
    await waitFor(() => recorder.executions.some((e) => e.id === executionId), 20_000, `record ${executionId}`);
    return recorder.executions.find((e) => e.id === executionId)!;
  };

  beforeAll(async () => {
    recorder = new MemoryRecorder();
    // Alice's echo calls pause before the chain; bob's never do (the principal does not match).
    gateway = new Gateway(breakpointsConfig([{ id: 'alice-echo', method: 'tools/call', target: 'echo', principal: 'alice' }]), { recorder });
    await gateway.start();
    alice = await connect(gateway, 'token-alice');
    bob = await connect(gateway, 'token-bob');
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await gateway?.stop();
  });

  it('edit and continue: an invalid edit is refused (the pause stays), a valid one reaches the backend, recorded with its diff', async () => {
    const paused = nextPause(gateway);
    const call = alice.callTool({ name: 'echo', arguments: { message: 'original' } });
    const view = await paused;
    expect(view).toMatchObject({ at: 'request-before-chain', method: 'tools/call', target: 'echo', principal: 'alice', breakpoint: 'alice-echo' });
    expect(view.payload).toMatchObject({ name: 'echo', arguments: { message: 'original' } });

    expect(() => gateway.breakpoints.pauses.decide(view.id, { kind: 'edit', payload: { arguments: { message: 'x' } } }, 'you')).toThrow(PauseDecisionError);
    expect(gateway.breakpoints.pauses.get(view.id)).toBeDefined();

    gateway.breakpoints.pauses.decide(view.id, { kind: 'edit', payload: { name: 'echo', arguments: { message: 'edited by hand' } } }, 'you');
    expect(text(await call)).toBe('Echo: edited by hand');
    const rec = await recordOf(view.executionId);
    expect(rec.outcome).toBe('mutated');
    expect(rec.requestForwarded).toMatchObject({ arguments: { message: 'edited by hand' } });
    expect(rec.pauses).toHaveLength(1);
    expect(rec.pauses![0]).toMatchObject({
      at: 'request-before-chain',
      breakpoint: 'alice-echo',
      decision: 'edit',
      by: 'you',
      before: { arguments: { message: 'original' } },
      after: { arguments: { message: 'edited by hand' } },
    });
    // The chain ran on the edited payload.
    expect(rec.requestTrace?.inputPayload).toMatchObject({ arguments: { message: 'edited by hand' } });
  });

  it('block with a message: the client reads it, recorded as blocked by the breakpoint, never forwarded', async () => {
    const paused = nextPause(gateway);
    const call = alice.callTool({ name: 'echo', arguments: { message: 'hi' } });
    const view = await paused;
    gateway.breakpoints.pauses.decide(view.id, { kind: 'block', message: 'not today' }, 'you');
    const result = await call;
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('Blocked by breakpoint/alice-echo (request): not today');
    const rec = await recordOf(view.executionId);
    expect(rec.outcome).toBe('blocked');
    expect(rec.blockedBy).toMatchObject({ server: 'breakpoint', interceptor: 'alice-echo', phase: 'request', messages: ['not today'] });
    expect(rec.requestForwarded).toBeUndefined();
    expect(rec.pauses![0]).toMatchObject({ decision: 'block', by: 'you', message: 'not today' });
  });

  it('answer with a mock: schema-checked, returned without calling the backend, recorded as such', async () => {
    const paused = nextPause(gateway);
    const call = alice.callTool({ name: 'echo', arguments: { message: 'hi' } });
    const view = await paused;
    expect(() => gateway.breakpoints.pauses.decide(view.id, { kind: 'answer', result: { content: [{ type: 'text' }] } }, 'you')).toThrow(/not valid/);
    gateway.breakpoints.pauses.decide(view.id, { kind: 'answer', result: { content: [{ type: 'text', text: 'a mock answer' }] } }, 'you');
    expect(text(await call)).toBe('a mock answer');
    const rec = await recordOf(view.executionId);
    expect(rec.responseReceived).toBeUndefined();
    expect(rec.requestForwarded).toBeUndefined();
    expect(rec.responseReturned).toEqual({ content: [{ type: 'text', text: 'a mock answer' }] });
    expect(rec.pauses![0]).toMatchObject({ decision: 'answer', after: { content: [{ type: 'text', text: 'a mock answer' }] } });
  });

  it('step: pauses before each interceptor with its input and the results so far, then after the chain', async () => {
    let paused = nextPause(gateway);
    const call = alice.callTool({ name: 'echo', arguments: { message: 'mail me at a@example.com' } });
    let view = await paused;
    const seen: string[] = [];
    // Step until the chain is done (request-after-chain), then continue.
    for (let i = 0; i < 10 && view.at !== 'request-after-chain'; i++) {
      paused = nextPause(gateway);
      gateway.breakpoints.pauses.decide(view.id, { kind: 'step' }, 'you');
      view = await paused;
      if (view.at === 'before-interceptor') seen.push(view.interceptor!);
      if (view.interceptor === 'samples/pii-validator') {
        // The mutator ran before it: its result is shown, and the validator's input is the redacted payload.
        expect(view.stepped?.map((s) => s.id)).toEqual(['samples/email-redactor']);
        expect(JSON.stringify(view.stepped![0]!.result)).toContain('[EMAIL_REDACTED]');
        expect(JSON.stringify(view.payload)).toContain('[EMAIL_REDACTED]');
      }
    }
    expect(seen).toEqual(['samples/email-redactor', 'samples/pii-validator']);
    expect(view.at).toBe('request-after-chain');
    expect(view.requestTrace?.steps.find((s) => s.id === 'samples/email-redactor')?.outcome).toBe('mutated');
    gateway.breakpoints.pauses.decide(view.id, { kind: 'continue' }, 'you');
    expect(text(await call)).toBe('Echo: mail me at [EMAIL_REDACTED]');
    const rec = await recordOf(view.executionId);
    expect(rec.pauses!.map((p) => `${p.at}${p.interceptor ? ` ${p.interceptor}` : ''}:${p.decision}`)).toEqual([
      'request-before-chain:step',
      'before-interceptor samples/email-redactor:step',
      'before-interceptor samples/pii-validator:step',
      'request-after-chain:continue',
    ]);
  });

  it("a paused call holds only itself: bob's calls and alice's other calls flow meanwhile", async () => {
    const paused = nextPause(gateway);
    const held = alice.callTool({ name: 'echo', arguments: { message: 'held' } });
    const view = await paused;
    // Both complete while alice's echo is still paused (no sleep: the pause is still open when they return).
    expect(text(await bob.callTool({ name: 'echo', arguments: { message: 'bob flows' } }))).toBe('Echo: bob flows');
    const sum = await alice.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
    expect(text(sum)).toContain('5');
    expect(gateway.breakpoints.pauses.get(view.id)).toBeDefined();
    gateway.breakpoints.pauses.decide(view.id, { kind: 'continue' }, 'you');
    expect(text(await held)).toBe('Echo: held');
  });

  it('progress notifications keep a client with a progressToken waiting while paused', async () => {
    const progress: { message?: string }[] = [];
    const paused = nextPause(gateway);
    const call = alice.callTool({ name: 'echo', arguments: { message: 'p' } }, { onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true });
    const view = await paused;
    await waitFor(() => progress.length > 0, 20_000, 'a progress notification');
    expect(progress[0]!.message).toBe('Paused at a breakpoint in the gateway');
    gateway.breakpoints.pauses.decide(view.id, { kind: 'continue' }, 'you');
    expect(text(await call)).toBe('Echo: p');
  });
});
