// Replay with real parts: server-everything as the backend and the sample interceptor server over stdio.
// A replay through the backend runs the gateway's current chain (an override changed after the original
// changes the outcome), reaches the backend and is recorded as a replay; chain-only replays never reach
// the backend and run the response phase on the recorded response.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRecorder } from '../../src/shared/trace/execution';
import { Gateway } from '../../src/main/gateway';
import { ReplayClient } from '../../src/main/gateway/replay/replay';
import { replayChainOnly } from '../../src/main/gateway/replay/replay-chain';
import { samplesGatewayConfig } from './samples-gateway-config';

const text = (r: unknown) => JSON.stringify(r);

describe('replay through a gateway', () => {
  let gateway: Gateway;
  const recorder = new MemoryRecorder();

  beforeAll(async () => {
    // Never started: a replay needs the gateway's chain and backend, not its listener. Its interceptor
    // server is started first, so that a slow start on a busy machine is not a fail-closed block.
    gateway = new Gateway(samplesGatewayConfig(), { name: 'replay-test', recorder });
    await Promise.all(gateway.interception.servers.map((h) => h.discover()));
  }, 60_000);
  afterAll(async () => {
    await gateway.interception.close();
  });

  it('re-sends a request through the chain to the backend and marks the record as a replay', async () => {
    const client = await ReplayClient.open(gateway, recorder);
    try {
      const redacted = await client.send('tools/call', { name: 'echo', arguments: { message: 'mail bob@example.com' } }, 'original-1');
      expect(redacted.replayOf).toBe('original-1');
      expect(redacted.replayMode).toBe('backend');
      expect(redacted.outcome).toBe('mutated');
      expect(text(redacted.requestForwarded)).toContain('[EMAIL_REDACTED]');
      expect(text(redacted.responseReceived)).toContain('[EMAIL_REDACTED]');
      expect(redacted.requestTrace?.steps.some((s) => s.name === 'email-redactor' && s.outcome === 'mutated')).toBe(true);

      const blocked = await client.send('tools/call', { name: 'echo', arguments: { message: 'ssn 123-45-6789' } }, 'original-2');
      expect(blocked.outcome).toBe('blocked');
      expect(blocked.blockedBy?.interceptor).toBe('pii-validator');
      expect(blocked.responseReceived).toBeUndefined();
      expect(recorder.executions.map((e) => e.replayOf)).toEqual(['original-1', 'original-2']);
      expect(recorder.sessions.at(-1)?.clientInfo?.name).toBe('interceptor-console-replay');
    } finally {
      await client.close();
    }
  });

  it('follows a config change: disabling pii-validator turns the blocked call into an allowed one', async () => {
    await gateway.reload(samplesGatewayConfig({ 'samples/pii-validator': { enabled: false } }));
    await Promise.all(gateway.interception.servers.map((h) => h.discover()));
    const client = await ReplayClient.open(gateway, recorder);
    try {
      const allowed = await client.send('tools/call', { name: 'echo', arguments: { message: 'ssn 123-45-6789' } }, 'original-2');
      expect(allowed.outcome).toBe('allow');
      expect(text(allowed.responseReturned)).toContain('123-45-6789');
      expect(allowed.requestTrace?.steps.find((s) => s.name === 'pii-validator')?.skipped).toBe('disabled');
    } finally {
      await client.close();
      await gateway.reload(samplesGatewayConfig());
      await Promise.all(gateway.interception.servers.map((h) => h.discover()));
    }
  });

  it('replays the chain only: request phase on the params, response phase on the recorded response', async () => {
    const blocked = await replayChainOnly(gateway, recorder, {
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'social security 123' } },
      replayOf: 'original-3',
    });
    expect(blocked.outcome).toBe('blocked');
    expect(blocked.replayMode).toBe('chain-only');
    expect(blocked.blockedBy?.phase).toBe('request');
    expect(text(blocked.responseReturned)).toContain('Blocked by samples/pii-validator');

    const recordedResponse = { content: [{ type: 'text', text: 'Echo: hi' }] };
    const mutated = await replayChainOnly(gateway, recorder, {
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'to carol@example.com' } },
      recordedResponse,
      replayOf: 'original-4',
    });
    expect(mutated.outcome).toBe('mutated');
    expect(mutated.responseReceived).toEqual(recordedResponse);
    expect(mutated.responseTrace?.phase).toBe('response');
    expect(mutated.sessionId).toBeUndefined();
    expect(recorder.executions.at(-1)?.id).toBe(mutated.id);
  });

  it('refuses to send a server-to-client request to the backend', async () => {
    const client = await ReplayClient.open(gateway, recorder);
    try {
      await expect(client.send('sampling/createMessage', {}, 'x')).rejects.toThrow(/Replay chain only/);
    } finally {
      await client.close();
    }
  });
});
