// Each fault of issue #15 (items 2-5) against a real gateway process, a backend that misbehaves on request
// and a client that does what real clients do (DELETE mid-call, vanish, send odd ids or absurd params).
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { chaosBackend, chaosDir, descendants, GatewayProcess, HttpSession, ranKeys, recordedCalls, waitFor, type ChaosDir } from './harness';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function gateway(config: Record<string, unknown> = {}): Promise<{ d: ChaosDir; gw: GatewayProcess; url: string }> {
  const d = chaosDir();
  cleanups.push(d.cleanup);
  const gw = new GatewayProcess(d, { backend: chaosBackend(d), ...config });
  cleanups.push(() => gw.stop('SIGKILL'));
  return { d, gw, url: await gw.ready() };
}

describe('item 2: every call answered, every call recorded', () => {
  it('a backend that hangs: the client gets a backend-timeout error, the backend a cancellation, history an error', async () => {
    const { d, gw, url } = await gateway({ backendTimeoutMs: 400 });
    const s = new HttpSession(url);
    await s.initialize();
    const answer = await s.tool('hang', { key: 'h1' });
    expect(answer.error?.code).toBe(-32001);
    expect(answer.error?.message).toMatch(/Backend timeout.*400 ms/);
    await waitFor(
      () => existsSync(d.cancelFile) && readFileSync(d.cancelFile, 'utf8').includes('backend timeout'),
      10_000,
      'notifications/cancelled at the backend',
    );
    await gw.stop();
    const { calls } = recordedCalls(d.db);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ outcome: 'error', error: { code: -32001, data: { reason: 'backend timeout' } } });
  });

  it('progress notifications push the deadline back; a per-method override wins', async () => {
    const { gw, url, d } = await gateway({ backendTimeoutMs: 60_000, backendMethodTimeoutsMs: { 'tools/call': 300 } });
    const s = new HttpSession(url);
    await s.initialize();
    const progressed = await s.call('tools/call', { name: 'progress', arguments: { ms: 900, every: 50 }, _meta: { progressToken: 'p1' } });
    expect(progressed.result?.content).toEqual([{ type: 'text', text: expect.stringMatching(/^progressed \d+/) }]);
    const hung = await s.tool('hang');
    expect(hung.error?.code).toBe(-32001);
    await gw.stop();
    expect(
      recordedCalls(d.db)
        .calls.map((c) => c.outcome)
        .sort(),
    ).toEqual(['allow', 'error']);
  });

  it('an invalid line for a pending id fails that request at once', async () => {
    const { gw, url, d } = await gateway({ backendTimeoutMs: 60_000 });
    const s = new HttpSession(url);
    await s.initialize();
    const started = performance.now();
    const answer = await s.tool('garbage');
    expect(answer.error?.message).toMatch(/invalid JSON-RPC message/);
    // Well before the 60 s deadline (a generous bound: this is about "at once" vs "never", not speed).
    expect(performance.now() - started).toBeLessThan(30_000);
    await gw.stop();
    expect(recordedCalls(d.db).calls).toMatchObject([{ outcome: 'error' }]);
  });

  it('a client that DELETEs its session mid-call: every call the backend ran is recorded, once', async () => {
    const { gw, url, d } = await gateway();
    const s = new HttpSession(url);
    await s.initialize();
    const inFlight = ['d1', 'd2', 'd3'].map((key) => s.tool('work', { key, ms: 5000 }).catch(() => undefined));
    await waitFor(() => ranKeys(d).length === 3, 20_000, 'the backend running 3 calls');
    expect(await s.delete()).toBe(200);
    await Promise.all(inFlight);
    await gw.stop();
    const { calls } = recordedCalls(d.db);
    expect(calls.map((c) => c.key).sort()).toEqual(['d1', 'd2', 'd3']);
    expect(calls.every((c) => c.outcome === 'error' && /session closed/.test(c.error!.message))).toBe(true);
  });

  it('SIGTERM with calls in flight: they finish (drain), clients get their answers, all are recorded', async () => {
    const { gw, url, d } = await gateway();
    const s = new HttpSession(url);
    await s.initialize();
    const keys = ['t1', 't2', 't3', 't4', 't5'];
    const answers = keys.map((key) => s.tool('work', { key, ms: 800 }));
    await waitFor(() => ranKeys(d).length === keys.length, 20_000, 'the backend running 5 calls');
    gw.child.kill('SIGTERM');
    const got = await Promise.all(answers);
    expect(got.map((a) => a.result?.content)).toEqual(keys.map((k) => [{ type: 'text', text: `done ${k}` }]));
    await gw.exited;
    expect(gw.exit?.code).toBe(0);
    expect(
      recordedCalls(d.db)
        .calls.map((c) => c.key)
        .sort(),
    ).toEqual(keys);
  });

  it('SIGTERM with a call that outlives the drain timeout: it is answered with an error and recorded', async () => {
    const { gw, url, d } = await gateway({ drainTimeoutMs: 300 });
    const s = new HttpSession(url);
    await s.initialize();
    const answer = s.tool('work', { key: 'long', ms: 120_000 });
    await waitFor(() => ranKeys(d).length === 1, 20_000, 'the backend running the call');
    gw.child.kill('SIGTERM');
    expect((await answer).error?.message).toMatch(/gateway stopped before the backend answered/);
    await gw.exited;
    expect(recordedCalls(d.db).calls).toMatchObject([{ outcome: 'error' }]);
  });
});

describe('item 3: bounded resources', () => {
  it('sessions whose clients vanished are reaped with their backend; the session cap answers clearly', async () => {
    const { gw, url } = await gateway({ listen: { transport: 'http', port: 0, sessionIdleTimeoutMs: 2000, maxSessions: 3 } });
    const sessions = [new HttpSession(url), new HttpSession(url), new HttpSession(url)];
    const used = await Promise.all(
      sessions.map(async (s) => {
        await s.initialize();
        return s.tool('echo', { hi: 1 });
      }),
    );
    // (A session idle past the timeout while the others start would be reaped early: that is fine here.)
    expect(used.every((a) => a.result !== undefined || a.error?.code === -404)).toBe(true);
    const fourth = await new HttpSession(url).post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    expect(fourth.status).toBe(503);
    expect(await fourth.text()).toMatch(/already serves 3 client sessions \(listen\.maxSessions\)/);
    // The three clients vanish without DELETE: their sessions and backend processes go after the idle timeout.
    await waitFor(() => descendants(gw.pid).length === 0, 20_000, 'idle sessions reaped');
    // The gateway logs the reap, then stops the backend: a backend gone at once can be seen here before the
    // test has read the line from the gateway's stderr pipe (it failed so once in CI), so the line is waited for.
    await waitFor(() => /closed after 2000 ms without a request/.test(gw.stderr), 5_000, 'the reap in the log');
    const again = new HttpSession(url);
    await again.initialize();
    expect((await again.tool('echo', {})).result).toBeDefined();
  });
});
