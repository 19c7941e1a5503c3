// Issue 15, deadlines that end work: an interceptor server that misses its invoke deadline and then
// does not answer ping, or stops answering the periodic ping, is killed (SIGTERM, SIGKILL after a
// grace period: a frozen process never runs its SIGTERM handler) and restarted with backoff; in the
// meantime its interceptors fail and are routed by failOpen.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainRuntime } from '../../src/main/interceptors/chain';
import { InterceptorServerClient } from '../../src/main/interceptors/client';
import type { ConnectionStatus } from '../../src/main/interceptors/client/status';
import type { InterceptorServerHandle } from '../../src/main/interceptors/server-handle';
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

    // Until the new process is up, the server's interceptors fail and are routed by failOpen.
    const closed = new ChainRuntime([client]);
    // The same server configured fail-open (A8).
    const asFailOpen: InterceptorServerHandle = {
      name: client.name,
      failOpen: true,
      discover: (o) => client.discover(o),
      invoke: (p, o) => client.invoke(p, o),
    };
    const open = new ChainRuntime([asFailOpen]);
    const [blocked, passed] = await Promise.all([
      closed.run('tools/call', 'request', call('ok').payload),
      open.run('tools/call', 'request', call('ok').payload),
    ]);
    expect(blocked.decision).toBe('block');
    // At once, not after the restart: the server is still down, and the reason says it is restarting.
    expect(blocked.trace.blockedBy?.reason).toMatch(/frozen.*fail-closed: interceptor server 'frozen' restarting: it did not answer ping within 1000ms/);
    expect(client.status.state).toBe('failed');
    expect(passed.decision).toBe('allow');

    await waitFor(() => !alive(pid), 20_000, 'the frozen process to be gone (SIGKILL after the grace period)');
    await waitFor(() => client.status.state === 'connected' && client.status.pid !== pid, 30_000, 'a new process');
    await expect(client.invoke(call('ok'))).resolves.toMatchObject({ valid: true });
    expect(
      statuses
        .filter((s) => s.state === 'connected')
        .map((s) => s.pid)
        .filter((p, i, all) => all.indexOf(p) === i),
    ).toHaveLength(2);
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

  it.skipIf(process.platform === 'win32')('behind a wrapper shell, the frozen server itself is killed, within the grace period', async () => {
    const stderr: string[] = [];
    const client = new InterceptorServerClient({
      name: 'frozen',
      connection: { transport: 'stdio', command: 'sh', args: ['-c', `${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(fixture)}; true`] },
      backoff: { initialMs: 5_000 },
      health: { pingIntervalMs: 300, pingTimeoutMs: 1_000, killGraceMs: 300 },
      onStderr: (t) => stderr.push(t),
    });
    open.push(client);
    await client.discover();
    const server = Number(/frozen fixture pid (\d+)/.exec(stderr.join(''))![1]);
    expect(server).not.toBe(client.status.pid); // the wrapper's child, not the process the client started
    const restarted = new Promise<number>((resolve) =>
      client.onStatus((s) => {
        if (/restarted: it did not answer ping/.test(s.lastError ?? '')) resolve(performance.now());
      }),
    );
    const err = await client.invoke({ ...call('freeze'), timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'transport' });
    const at = await restarted;
    // SIGKILL to the group after the 300 ms grace; signalled by the wrapper's pid alone, it lived on until the
    // connection's own stop (2 s for its stdin to end, then 2 s more).
    await waitFor(() => !alive(server), 10_000, 'the frozen server to be gone');
    expect(performance.now() - at).toBeLessThan(2_000);
  });
});
