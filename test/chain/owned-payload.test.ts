// RunOptions.ownedPayload (#26): a caller that gives its payload up (the gateway: a message it parsed for the
// call and never changes) spares the engine its copy (a structured clone per phase). Without it the engine
// still copies, so a caller that changes its object afterwards cannot change the trace. The gateway passes
// it: a recorded call's traces start from the very payloads it received.
import { describe, expect, it } from 'vitest';
import { ChainRuntime } from '../../src/main/interceptors/chain/index';
import { parseGatewayConfig } from '../../src/shared/config';
import { everythingBackend } from '../gateway/helpers';
import { withRecordingGateway } from '../gateway/recording-gateway';
import { allow, appendNote, call, desc, ic, memServer } from './helpers';

const server = () => memServer('s', [ic(desc('val', 'validation'), allow), ic(desc('tag', 'mutation'), appendNote('+'))]);

describe('ownedPayload', () => {
  it('takes the caller’s payload as the input without copying it; without it, a copy the caller cannot change', async () => {
    const rt = new ChainRuntime([server()]);
    const given = call('x');
    const owned = await rt.run('tools/call', 'request', given, { ownedPayload: true });
    expect(owned.trace.inputPayload).toBe(given);
    expect(owned.finalPayload).toEqual(call('x+'));
    expect(given).toEqual(call('x')); // the engine never changes it either

    const lent = call('y');
    const copied = await rt.run('tools/call', 'request', lent);
    expect(copied.trace.inputPayload).not.toBe(lent);
    lent.arguments.note = 'changed later';
    expect(copied.trace.inputPayload).toEqual(call('y'));
  });

  it('is what the gateway passes: a recorded call’s traces start from the payloads it received', async () => {
    const parsed = parseGatewayConfig({
      backend: everythingBackend,
      staticInterceptors: [{ transport: 'bundled', name: 'samples' }],
      listen: { transport: 'http', port: 0 },
      overrides: { 'samples/tool-allowlist': { config: { allow: ['echo'] } } },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    await withRecordingGateway(parsed.config, 'owned-payload-test', async ({ client, toolCalls }) => {
      await client.callTool({ name: 'echo', arguments: { message: 'hello' } });
      const record = (await toolCalls())[0]!;
      expect(record.requestTrace!.inputPayload).toBe(record.requestReceived);
      expect(record.responseTrace!.inputPayload).toBe(record.responseReceived);
      expect(record.requestReceived).toMatchObject({ name: 'echo', arguments: { message: 'hello' } });
    });
  });
});
