// The chaos suite (issue #15): 1,000 tools/call with 50 in flight through a real gateway process whose
// backend and interceptor server misbehave on some calls; then the same load with SIGTERM and with SIGKILL
// mid-way. Every call gets an answer, every call the backend ran is recorded exactly once (after a
// SIGKILL: every call confirmed more than 1 s before it, once the journal is replayed), the history file
// passes PRAGMA integrity_check, and no process is left behind.
import { afterEach, describe, expect, it } from 'vitest';
import { chaosDir, GatewayProcess, processesMatching, waitFor, type ChaosDir } from './harness';
import { chaosBackend } from './harness';
import { runLoad, startChaosGateway, tally } from './load';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const LOAD = { total: 1000, inFlight: 50, sessions: 5 };

function setup(interceptors = false): { d: ChaosDir; gw: GatewayProcess } {
  const d = chaosDir();
  cleanups.push(d.cleanup);
  const gw = startChaosGateway(d, { interceptors });
  cleanups.push(() => gw.stop('SIGKILL'));
  return { d, gw };
}

function counts(keys: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

async function nothingLeft(d: ChaosDir): Promise<void> {
  await waitFor(() => processesMatching(d.dir).length === 0, 20_000, `no process of ${d.dir} left`);
}

describe('chaos: 1,000 calls, 50 in flight, misbehaving backend and interceptor server', () => {
  it('no kill: every call answered, every call recorded exactly once', { timeout: 120_000 }, async () => {
    const { d, gw } = setup(true);
    const run = await runLoad(d, gw, { ...LOAD, faults: true, interceptors: true });
    expect(run.sent).toBe(1000);
    expect(run.cutOff).toEqual([]);
    expect(run.answered).toBe(1000);
    await gw.stop('SIGTERM');
    expect(gw.exit?.code).toBe(0);
    const { ran, recorded, integrity } = tally(d);
    expect(integrity).toBe('ok');
    const rec = counts(recorded);
    expect(recorded.length).toBe(1000); // every call, faults included, once
    expect([...rec.values()].every((n) => n === 1)).toBe(true);
    expect(ran.filter((k) => rec.get(k) !== 1)).toEqual([]);
    await nothingLeft(d);
  });

  it('SIGTERM mid-load: every call sent is answered and recorded once; the gateway exits 0', { timeout: 120_000 }, async () => {
    const { d, gw } = setup();
    const run = await runLoad(d, gw, { ...LOAD, faults: true, signal: 'SIGTERM', killAfter: 500 });
    await gw.exited;
    expect(gw.exit?.code).toBe(0);
    expect(run.cutOff).toEqual([]);
    // Every call the gateway took was answered; the few that arrived after its sessions closed got a clear 503.
    expect(run.answered + run.refused.length).toBe(run.sent);
    const { ran, recorded, integrity } = tally(d);
    expect(integrity).toBe('ok');
    const rec = counts(recorded);
    expect(recorded.length).toBe(run.answered);
    expect([...rec.values()].every((n) => n === 1)).toBe(true);
    expect(ran.filter((k) => rec.get(k) !== 1)).toEqual([]);
    await nothingLeft(d);
  });

  it('SIGKILL mid-load: every call confirmed > 1 s before the kill is recorded once after the journal replays', { timeout: 120_000 }, async () => {
    const { d, gw } = setup();
    // Calls that last: many answers are > 1 s old at the kill, so the check covers a real number of them.
    const run = await runLoad(d, gw, { ...LOAD, faults: false, signal: 'SIGKILL', killAfter: 700 });
    await gw.exited;
    expect(gw.exit?.signal).toBe('SIGKILL');
    await nothingLeft(d); // backends end when their stdin closes
    // The next gateway on the same history replays the journal of the dead one.
    const next = new GatewayProcess(d, { backend: chaosBackend(d, ['--tag', d.dir]) }, ['--quiet']);
    cleanups.push(() => next.stop('SIGKILL'));
    await next.ready();
    await next.stop('SIGTERM');
    const { recorded, integrity } = tally(d);
    expect(integrity).toBe('ok');
    const rec = counts(recorded);
    expect([...rec.values()].every((n) => n === 1)).toBe(true);
    const old = [...run.confirmedAt].filter(([, at]) => at < run.killedAt! - 1000).map(([k]) => k);
    expect(old.filter((k) => rec.get(k) !== 1)).toEqual([]);
    expect(run.answered).toBeGreaterThanOrEqual(700);
  });
});
