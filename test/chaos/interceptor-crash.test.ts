// A crashed interceptor server must not hold calls: a call in flight when its interceptor server process
// is SIGKILLed is answered at once (fail-open: the backend's result; fail-closed: blocked naming the crash),
// the calls that arrive while the server restarts are routed at once by failOpen instead of waiting for
// the restart, and once the server is back its interceptors run again. A real gateway process (the built
// CLI), the chaos backend and fixtures/crash-interceptors.ts, whose restart is made slow on purpose: a
// call that waited for the restart would be answered only after the new process says it is ready.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getExecutionRecord, openStore } from '../../src/main/history/sqlite';
import type { ExecutionRecord } from '../../src/shared/trace/execution';
import { chaosBackend, chaosDir, GatewayProcess, HttpSession, ranKeys, root, waitFor, type ChaosDir, type RpcAnswer } from './harness';

const fixture = join(root, 'test/chaos/fixtures/crash-interceptors.ts');
/** The interceptor deadline of `crash/hold`: the crash must be answered long before it. */
const TIMEOUT_MS = 30_000;
/** How long the restarted fixture waits before it serves (far more than a crash needs to be answered in). */
const RESTART_DELAY_MS = 4_000;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Setup {
  d: ChaosDir;
  fx: string;
  gw: GatewayProcess;
  s: HttpSession;
}

async function setup(failOpen: boolean): Promise<Setup> {
  const d = chaosDir();
  cleanups.push(d.cleanup);
  const fx = join(d.dir, 'fixture');
  mkdirSync(fx);
  const gw = new GatewayProcess(d, {
    backend: chaosBackend(d),
    // failOpen of the server (A8: while it is down and restarting) and of each interceptor (a failed invoke).
    staticInterceptors: [
      { transport: 'stdio', name: 'crash', command: process.execPath, arguments: ['--import', 'tsx', fixture, '--dir', fx], cwd: root, failOpen },
    ],
    overrides: { 'crash/hold': { timeoutMs: TIMEOUT_MS, failOpen }, 'crash/deny': { failOpen } },
  });
  cleanups.push(() => gw.stop('SIGKILL'));
  const s = new HttpSession(await gw.ready());
  await s.initialize();
  expect(textOf(await s.tool('work', { key: 'warm' }))).toBe('done warm');
  // From now on the first restart is slow, and `ready-<n>` says when a new process serves.
  writeFileSync(join(fx, 'start-delay-ms'), String(RESTART_DELAY_MS));
  return { d, fx, gw, s };
}

/** Sends a held call, SIGKILLs the interceptor server once it holds it; the answer and how long it took. */
async function killWhileHeld(fx: string, s: HttpSession): Promise<{ answer: RpcAnswer; ms: number; pid: number; restarted: boolean }> {
  const pending = s.tool('work', { key: 'held', hold: true });
  await waitFor(() => existsSync(join(fx, 'holding')), 60_000, 'the interceptor server to hold the call');
  const pid = Number(readFileSync(join(fx, 'holding'), 'utf8'));
  const t0 = performance.now();
  process.kill(pid, 'SIGKILL');
  const answer = await pending;
  return { answer, ms: performance.now() - t0, pid, restarted: restartedServing(fx) };
}

/** A restarted fixture process serves (`ready-<n>`, n ≥ 1: a restart slower than the initialize deadline is retried). */
function restartedServing(fx: string): boolean {
  return readdirSync(fx).some((f) => /^ready-[1-9]/.test(f));
}

function textOf(answer: RpcAnswer): string | undefined {
  const content = answer.result?.content as { text?: string }[] | undefined;
  return content?.[0]?.text;
}

/** The recorded tools/call executions whose `key` argument is `key`. */
function recordsOf(db: string, key: string): ExecutionRecord[] {
  const store = openStore(db, { create: false });
  try {
    const ids = store.db.prepare(`SELECT uuid FROM executions WHERE event = 'tools/call'`).pluck().all() as string[];
    return ids.map((id) => getExecutionRecord(store.db, id)!).filter((r) => (r.requestReceived as { arguments?: { key?: string } }).arguments?.key === key);
  } finally {
    store.close();
  }
}

/** Once the restarted server is up, its interceptors run again: `deny` blocks (the gateway reconnects just after `ready-<n>`). */
async function expectInterceptorsBack(fx: string, s: HttpSession): Promise<void> {
  await waitFor(() => restartedServing(fx), 60_000, 'the restarted interceptor server');
  const deniedText = 'Blocked by crash/deny (request): denied by the crash fixture';
  let last: string | undefined;
  for (let i = 0; i < 400 && last !== deniedText; i++) {
    last = textOf(await s.tool('work', { key: `after-${i}`, deny: true }));
    if (last !== deniedText) await new Promise((r) => setTimeout(r, 50));
  }
  expect(last).toBe(deniedText);
  // And a call it lets through reaches the backend.
  expect(textOf(await s.tool('work', { key: 'after-ok' }))).toBe('done after-ok');
}

describe('an interceptor server that crashes does not hold calls', { timeout: 180_000 }, () => {
  it('fail-open: the held call gets the backend result at once, recorded once with the crash; calls during the restart are not queued', async () => {
    const { d, fx, gw, s } = await setup(true);
    const { answer, ms, restarted } = await killWhileHeld(fx, s);
    expect(textOf(answer)).toBe('done held');
    // Long before the interceptor's deadline, and before the slow restart finished.
    expect(ms).toBeLessThan(TIMEOUT_MS / 2);
    expect(restarted).toBe(false);

    // During the restart a call is routed at once (A8, the server is down): `deny` would block it, fail-open skips it.
    const duringAnswer = await s.tool('work', { key: 'during', deny: true });
    expect(textOf(duringAnswer)).toBe('done during');
    expect(restartedServing(fx)).toBe(false);

    await expectInterceptorsBack(fx, s);
    await gw.stop();

    const held = recordsOf(d.db, 'held');
    expect(held).toHaveLength(1);
    expect(held[0]!.outcome).toBe('allow');
    const step = held[0]!.requestTrace!.steps.find((st) => st.id === 'crash/hold')!;
    expect(step.error).toMatchObject({
      kind: 'crash',
      message: expect.stringMatching(
        /crashed while 'hold' was running: its process \(pid \d+\) was killed by SIGKILL; its stderr ends with: .*crash fixture 0/,
      ),
    });
    const during = recordsOf(d.db, 'during');
    expect(during).toHaveLength(1);
    expect(during[0]!.requestTrace!.discovery[0]).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^interceptor server 'crash' restarting: its process \(pid \d+\) was killed by SIGKILL/),
    });
    expect(ranKeys(d)).toEqual(expect.arrayContaining(['held', 'during', 'after-ok']));
  });

  it('fail-closed: the held call is blocked naming the crash, so are calls during the restart; the backend never sees them', async () => {
    const { d, fx, gw, s } = await setup(false);
    const { answer, ms, restarted } = await killWhileHeld(fx, s);
    expect(answer.result?.isError).toBe(true);
    expect(textOf(answer)).toMatch(/^Blocked by crash\/hold \(request\): .*crashed while 'hold' was running: its process \(pid \d+\) was killed by SIGKILL/);
    expect(ms).toBeLessThan(TIMEOUT_MS / 2);
    expect(restarted).toBe(false);

    const during = await s.tool('work', { key: 'during' });
    expect(textOf(during)).toMatch(
      /^Blocked by crash \(request\): interceptor server 'crash' failed discovery and is fail-closed: interceptor server 'crash' restarting: its process \(pid \d+\) was killed by SIGKILL/,
    );
    expect(restartedServing(fx)).toBe(false);

    await expectInterceptorsBack(fx, s);
    await gw.stop();

    const held = recordsOf(d.db, 'held');
    expect(held).toHaveLength(1);
    expect(held[0]!.outcome).toBe('blocked');
    expect(held[0]!.requestTrace!.steps.find((st) => st.id === 'crash/hold')!.error).toMatchObject({ kind: 'crash' });
    expect(recordsOf(d.db, 'during')).toHaveLength(1);
    expect(ranKeys(d)).not.toContain('held');
    expect(ranKeys(d)).not.toContain('during');
  });
});
