// The invoker against real child processes over stdio: a server killed mid-call, reconnect with
// backoff, a process that never answers initialize, and a command that does not exist.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { InterceptorServerClient } from '../../src/main/interceptors/client';
import { InvokeError } from '../../src/main/interceptors/server-handle';
import { alive, waitFor } from '../gateway/helpers';

const fixture = fileURLToPath(new URL('./fixtures/stdio-host.ts', import.meta.url));
const open: InterceptorServerClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

function stdioClient(args: string[], extra: Partial<ConstructorParameters<typeof InterceptorServerClient>[0]> = {}) {
  const c = new InterceptorServerClient({
    name: 'stdio',
    connection: { transport: 'stdio', command: process.execPath, args },
    ...extra,
  });
  open.push(c);
  return c;
}

const okCall = { name: 'ok', event: 'tools/call', phase: 'request' as const, payload: { name: 't', arguments: {} } };

describe('InterceptorServerClient over stdio', () => {
  it('a server killed mid-call rejects the pending invoke at once as a crash naming the signal, then reconnects and rediscovers', async () => {
    const client = stdioClient(['--import', 'tsx', fixture], { backoff: { initialMs: 100 } });
    const first = await client.discover();
    expect(first.interceptors.map((d) => d.name)).toEqual(['ok', 'hang']);
    const pid = client.status.pid;
    expect(pid).toBeTypeOf('number');
    expect(client.status.stderrTail).toContain('ready');

    const reconnected = new Promise<number | undefined>((resolve) => {
      const off = client.onStatus((st) => {
        if (st.state === 'connected' && st.pid !== pid) {
          off();
          resolve(st.pid);
        }
      });
    });
    const pending = client.invoke({ ...okCall, name: 'hang' }, { timeoutMs: 20_000 });
    await waitFor(() => client.status.stderrTail?.includes('hang called') === true, 10_000, 'the hang call to reach the server');
    const killedAt = Date.now();
    process.kill(pid!, 'SIGKILL');
    const err = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InvokeError);
    // A crash, named: the signal and the end of the server's stderr.
    expect((err as InvokeError).kind).toBe('crash');
    expect((err as InvokeError).message).toMatch(
      /crashed while 'hang' was running: its process \(pid \d+\) was killed by SIGKILL; its stderr ends with: .*hang called/,
    );
    expect(Date.now() - killedAt).toBeLessThan(2_000); // promptly, not at the 20 s deadline

    // The background reconnect brings a fresh process; the next invoke uses it.
    const newPid = await reconnected;
    expect(newPid).not.toBe(pid);
    expect(await client.invoke(okCall, { timeoutMs: 10_000 })).toMatchObject({ interceptor: 'ok', valid: true });
    expect(client.status.state).toBe('connected');
    expect(client.status.pid).not.toBe(pid);
    expect((await client.discover()).interceptors).toHaveLength(2);
  });

  it('without background reconnect, the next use reconnects', async () => {
    const client = stdioClient(['--import', 'tsx', fixture], { autoReconnect: false });
    await client.connect();
    const pid = client.status.pid!;
    const closed = new Promise<void>((resolve) => {
      const off = client.onStatus((st) => st.state === 'failed' && (off(), resolve()));
    });
    process.kill(pid, 'SIGKILL');
    await closed;
    expect(client.status.lastError).toMatch(/its process \(pid \d+\) was killed by SIGKILL/);
    expect(await client.invoke(okCall, { timeoutMs: 10_000 })).toMatchObject({ valid: true });
    expect(client.status.pid).not.toBe(pid);
  });

  it('a process that never answers initialize fails with a clear error, and backs off', async () => {
    const client = stdioClient(['-e', 'process.stderr.write(`booting forever as ${process.pid}\\n`); setInterval(() => {}, 1000)'], {
      // Long enough for a node process to start and write its banner on a loaded 2-core machine: the
      // error must carry the stderr tail, which only exists once the process has written it.
      initializeTimeoutMs: 4_000,
      backoff: { initialMs: 20_000 },
    });
    const failure = await client.discover().catch((e: Error) => e);
    expect((failure as Error).message).toMatch(/did not answer initialize within 4000ms.*booting forever/);
    // Ended by the time the failure is reported, though it ignores its closed stdin: no orphan is left behind.
    const pid = Number(/booting forever as (\d+)/.exec((failure as Error).message)![1]);
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    expect(client.status).toMatchObject({ state: 'failed', failures: 1 });
    // Within the backoff window a use fails fast instead of spawning again.
    const err = await client.invoke(okCall).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'transport' });
    expect((err as Error).message).toMatch(/retrying in \d+ms/);
  });

  it.skipIf(process.platform === 'win32')('a server started through a wrapper shell is ended with it (its process group), not orphaned', async () => {
    // sh runs the server as its child (the trailing `true` keeps it from exec'ing it) and dies alone on SIGTERM.
    const server = `${JSON.stringify(process.execPath)} -e 'process.stderr.write("wrapped as " + process.pid + "\\n"); setInterval(() => {}, 1000)'; true`;
    const client = new InterceptorServerClient({
      name: 'wrapped',
      connection: { transport: 'stdio', command: 'sh', args: ['-c', server] },
      initializeTimeoutMs: 4_000,
      backoff: { initialMs: 20_000 },
    });
    open.push(client);
    const failure = (await client.discover().catch((e: Error) => e)) as Error;
    expect(failure.message).toMatch(/did not answer initialize within 4000ms.*wrapped as/);
    const pid = Number(/wrapped as (\d+)/.exec(failure.message)![1]);
    // Reparented when sh died, it may stay a zombie until init reaps it: that is ended too.
    await waitFor(() => !alive(pid), 2_000, `process ${pid} to end`);
  });

  it.skipIf(process.platform === 'win32')('a wrapped server that ignores SIGTERM is killed once the wrapper has died of it', async () => {
    // sh dies of SIGTERM at once; the server it started survives SIGTERM and keeps the pipes open: only the
    // final SIGKILL to the group ends it, though the child the client spawned (sh) has exited by then.
    const server = `${JSON.stringify(process.execPath)} -e 'process.on("SIGTERM", () => process.stderr.write("ignoring SIGTERM\\n")); process.stderr.write("stubborn as " + process.pid + "\\n"); setInterval(() => {}, 1000)'; true`;
    const stderr: string[] = [];
    const client = new InterceptorServerClient({
      name: 'stubborn',
      connection: { transport: 'stdio', command: 'sh', args: ['-c', server] },
      initializeTimeoutMs: 1_000,
      backoff: { initialMs: 20_000 },
      onStderr: (t) => stderr.push(t),
    });
    open.push(client);
    const failure = (await client.discover().catch((e: Error) => e)) as Error;
    expect(failure.message).toMatch(/did not answer initialize within 1000ms.*stubborn as/);
    const pid = Number(/stubborn as (\d+)/.exec(failure.message)![1]);
    await waitFor(() => !alive(pid), 10_000, `process ${pid} to end`);
    expect(stderr.join('')).toContain('ignoring SIGTERM'); // it was asked first
  });

  it('a command that exits at once reports its stderr', async () => {
    const client = stdioClient(['-e', 'console.error("missing config file"); process.exit(3)']);
    await expect(client.connect()).rejects.toThrow(/could not connect.*missing config file/);
  });

  it('a command that does not exist says so', async () => {
    const client = new InterceptorServerClient({
      name: 'nope',
      connection: { transport: 'stdio', command: '/definitely/not/here' },
    });
    open.push(client);
    await expect(client.connect()).rejects.toThrow(/could not connect to server at \/definitely\/not\/here.*ENOENT/);
  });
});
