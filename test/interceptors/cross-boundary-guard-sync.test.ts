// cross-boundary-guard answers synchronously while its scans run inline ([path-speed]): the host then
// answers it in the same write as the other validators of the pass (host/stdio-transport.ts batches the
// answers of one input chunk). Checked through the host's local invoke, which hands back a promise only for
// work still running, with the samples' worker pool on (serve-samples) and off.
import { afterEach, describe, expect, it } from 'vitest';
import type { InterceptorHost } from '../../src/main/interceptors/host';
import { createSampleHost } from '../../src/main/interceptors/samples';

const hosts: InterceptorHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

const secret = 'AKIAIOSFODNN7EXAMPLE';
const context = { sessionId: 's1', traceId: 't1' };
const call = (phase: 'request' | 'response', name: string, payload: unknown) => ({
  name: 'cross-boundary-guard',
  event: 'tools/call',
  phase,
  payload: phase === 'request' ? { name, arguments: payload } : payload,
  context,
});

describe.each([false, true])('cross-boundary-guard with workers %s', (workers) => {
  it('answers each phase synchronously for small payloads, blocking a cross-boundary secret as before', () => {
    const host = createSampleHost({ workers });
    hosts.push(host);
    // A file read returns a secret: the response is scanned and the secret tainted as the filesystem's.
    const read = host.invokeLocalNow(call('request', 'read_file', { path: '/keys' }));
    expect(read).not.toBeInstanceOf(Promise);
    const result = host.invokeLocalNow(call('response', 'read_file', { content: [{ type: 'text', text: `key=${secret}` }] }));
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toMatchObject({ valid: true });
    // Sending it to another server is blocked, synchronously too.
    const leak = host.invokeLocalNow(call('request', 'send_email', { body: `here: ${secret}` }));
    expect(leak).not.toBeInstanceOf(Promise);
    expect(leak).toMatchObject({ valid: false, severity: 'error' });
  });
});
