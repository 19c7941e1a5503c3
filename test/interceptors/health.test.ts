// Issue 15, deadlines that end work: an interceptor server that misses its invoke deadline and then
// does not answer ping, or stops answering the periodic ping, is killed (SIGTERM, SIGKILL after a
// grace period: a frozen process never runs its SIGTERM handler) and restarted with backoff; in the
// meantime its interceptors fail and are routed by failOpen.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainRuntime } from '../../src/main/interceptors/chain';
import { InterceptorServerClient } from '../../src/main/interceptors/client';
import type { ConnectionStatus } from '../../src/main/interceptors/client/status';
import { alive, waitFor } from '../gateway/helpers';

const fixture = fileURLToPath(new URL('./fixtures/frozen-host.ts', import.meta.url));
const open: InterceptorServerClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

function frozenClient(
  health: ConstructorParameters<typeof InterceptorServerClient>[0]['health'],
  firstBackoffMs = 300,
): { client: InterceptorServerClient; statuses: ConnectionStatus[] } {
  const client = new InterceptorServerClient({
    name: 'frozen',
    connection: { transport: 'stdio', command: process.execPath, args: ['--import', 'tsx', fixture] },
    backoff: { initialMs: firstBackoffMs },
    health,
  });
  open.push(client);
  const statuses: ConnectionStatus[] = [];
  client.onStatus((s) => statuses.push(s));
  return { client, statuses };
}

const call = (name: string) => ({ name, event: 'tools/call', phase: 'request' as const, payload: { name: 'echo', arguments: {} } });

describe('an unresponsive interceptor server is killed and restarted', { timeout: 60_000 }, () => {
  it('after a missed deadline and an unanswered ping; meanwhile fail-open passes and fail-closed blocks', async () => {
    // A long first backoff leaves a clear window between the kill and the restart.
    const { client, statuses } = frozenClient({ pingIntervalMs: 0, pingTimeoutMs: 1_000, killGraceMs: 500 }, 5_000);
    await client.discover();
    const pid = client.status.pid!;
    expect(alive(pid)).toBe(true);

    const err = await client.invoke({ ...call('freeze'), timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'timeout' });
    await waitFor(() => client.status.state === 'failed', 20_000, 'the kill');
    expect(client.status.lastError).toMatch(/restarted: it did not answer ping within 1000ms/);

    // Until the new process is up, calls do not wait for it: the server's interceptors (known from the
    // last discovery) fail at once as "restarting" and each is routed by its own failOpen.
    const closed = new ChainRuntime([client]);
    const open = new ChainRuntime([client], { overrides: { 'frozen/ok': { failOpen: true }, 'frozen/freeze': { failOpen: true } } });
    const [blocked, passed] = await Promise.all([closed.run('tools/call', 'request', call('ok').payload), open.run('tools/call', 'request', call('ok').payload)]);
    expect(blocked.decision).toBe('block');
    expect(blocked.trace.blockedBy?.reason).toMatch(/frozen\/(ok|freeze) failed \(transport\) and it is fail-closed: interceptor server 'frozen' restarting: it did not answer ping within 1000ms/);
    expect(passed.decision).toBe('allow');
    expect(passed.trace.steps.map((st) => st.error?.message)).toEqual([expect.stringMatching(/restarting/), expect.stringMatching(/restarting/)]);
    expect(client.status.state).toBe('failed'); // answered before the restart

    await waitFor(() => !alive(pid), 20_000, 'the frozen process to be gone (SIGKILL after the grace period)');
    await waitFor(() => client.status.state === 'connected' && client.status.pid !== pid, 30_000, 'a new process');
    await expect(client.invoke(call('ok'))).resolves.toMatchObject({ valid: true });
    expect(statuses.filter((s) => s.state === 'connected').map((s) => s.pid).filter((p, i, all) => all.indexOf(p) === i)).toHaveLength(2);
  });

  it('when it stops answering the periodic ping, before its (long) deadline', async () => {
    const { client, statuses } = frozenClient({ pingIntervalMs: 300, pingTimeoutMs: 1_000, killGraceMs: 500 });
    await client.discover();
    const pid = client.status.pid!;
    const err = await client.invoke({ ...call('freeze'), timeoutMs: 60_000 }).catch((e: unknown) => e);
    // Ended by the kill, long before its own deadline.
    expect(err).toMatchObject({ kind: 'transport' });
    expect(statuses.some((s) => /restarted: it did not answer ping/.test(s.lastError ?? ''))).toBe(true);
    await waitFor(() => !alive(pid), 30_000, 'the frozen process to be gone');
    await waitFor(() => client.status.state === 'connected' && client.status.pid !== pid, 30_000, 'a new process');
  });
});
