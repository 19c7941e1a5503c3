// Issue [path-fidelity] items 6 and 10: how long an undecided pause lasts. A timeoutMs of 2^31 ms or more
// overflowed Node's timer and ended the pause at once (item 6): it is refused where breakpoints come in
// (the config file, the control endpoint). And the default pause (60 s) always lost the race with an SDK
// client's own 60 s request timeout (item 10): the default is shorter, so the pause ends first, and a
// client that does give up while paused is recorded as such. Real parts: the built CLI gateway (HTTP
// listener, control endpoint), server-everything, SDK clients, the SQLite history file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/client';
import type { ExecutionRecord } from '../../src/shared/trace/execution';
import { chaosDir, GatewayProcess } from '../chaos/harness';
import { everythingBackend } from '../gateway/helpers';
import { nextPaused, startControlledGateway, toolCallRecords, type ControlledGateway } from './headless-helpers';
import { text } from './helpers';
import { waitFor } from '../support/wait-for';

/** The tools/call records of the history file whose echo message is `message` (read once the gateway stopped). */
function recordsOf(db: string, message: string): ExecutionRecord[] {
  return toolCallRecords(db).filter((r) => (r.requestReceived as { arguments?: { message?: string } }).arguments?.message === message);
}

describe('pause timeouts in a headless gateway', { timeout: 150_000 }, () => {
  let g: ControlledGateway;
  const setLive = (live: unknown[]) => fetch(`${g.control}/breakpoints`, { method: 'PUT', headers: g.auth, body: JSON.stringify({ live }) });
  const paused = async () =>
    (await (await fetch(`${g.control}/paused`, { headers: g.auth })).json()) as { id: string; timeoutMs: number; pausedAt: string; deadline: string }[];
  const nextPause = async () => {
    const open = await nextPaused<Awaited<ReturnType<typeof paused>>[number]>(g);
    expect(open, 'a pause').toHaveLength(1);
    return open[0]!;
  };

  beforeAll(async () => {
    g = await startControlledGateway('pause-timeouts');
  }, 60_000);
  afterAll(async () => {
    await g?.close();
  });

  describe('item 6: timeoutMs past what a timer holds', () => {
    it('the control endpoint refuses timeoutMs 3,000,000,000 with the bound, and sets nothing', async () => {
      const res = await setLive([{ id: 'huge', method: 'tools/call', target: 'echo', timeoutMs: 3_000_000_000 }]);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/live\.0\.timeoutMs: at most 86400000/);
      const view = (await (await fetch(`${g.control}/breakpoints`, { headers: g.auth })).json()) as { live: unknown[] };
      expect(view.live).toEqual([]);
    });

    it('a config file with timeoutMs 3,000,000,000 does not start, and says which field and why', async () => {
      const other = chaosDir();
      try {
        const bad = new GatewayProcess(other, { backend: everythingBackend, breakpoints: [{ method: 'tools/call', timeoutMs: 3_000_000_000 }] });
        await expect(bad.ready()).rejects.toThrow(/breakpoints\[0\]\.timeoutMs: at most 86400000/);
        await bad.stop();
      } finally {
        other.cleanup();
      }
    });

    it('the longest allowed timeout (24 h) holds: the pause waits for a decision', async () => {
      expect((await setLive([{ id: 'day', method: 'tools/call', target: 'echo', timeoutMs: 86_400_000 }])).status).toBe(200);
      const call = g.client
        .callTool({ name: 'echo', arguments: { message: 'a day' } }, { timeout: 60_000 })
        .catch((e: Error) => ({ content: [{ text: `client error: ${e.message}` }] }));
      const pause = await nextPause();
      expect(Date.parse(pause.deadline) - Date.parse(pause.pausedAt)).toBe(86_400_000);
      await new Promise((r) => setTimeout(r, 1_000));
      expect((await paused()).map((p) => p.id)).toEqual([pause.id]); // not fired at once
      expect(
        (
          await fetch(`${g.control}/paused/${pause.id}`, {
            method: 'POST',
            headers: g.auth,
            body: JSON.stringify({ decision: { kind: 'continue' }, by: 'ops' }),
          })
        ).status,
      ).toBe(200);
      expect(text(await call)).toBe('Echo: a day');
    });
  });

  describe('item 10: an undecided pause and the client timeout', () => {
    it('with the default timeout, the pause ends before an SDK client with its default timeout gives up', { timeout: 100_000 }, async () => {
      expect((await setLive([{ id: 'default', method: 'tools/call', target: 'echo' }])).status).toBe(200);
      const t0 = Date.now();
      // No options: the SDK's default request timeout (60 s), as most clients run.
      const call = g.client
        .callTool({ name: 'echo', arguments: { message: 'nobody decides' } })
        .catch((e: Error) => ({ content: [{ text: `client error: ${e.message}` }] }));
      const pause = await nextPause();
      // What the client got first (with a 60 s pause: "Request timed out" as the pause ended), then why.
      expect(text(await call)).toBe('Echo: nobody decides');
      expect(Date.now() - t0).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MSEC);
      expect(pause.timeoutMs).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MSEC);
    });

    it('a client that gives up while paused (its own timeout cancels the call) is recorded as having got no answer', async () => {
      expect((await setLive([{ id: 'slow', method: 'tools/call', target: 'echo', timeoutMs: 20_000 }])).status).toBe(200);
      const outcome = await g.client.callTool({ name: 'echo', arguments: { message: 'gave up' } }, { timeout: 1_500 }).then(
        () => 'answered',
        (e: Error) => e.message,
      );
      expect(outcome).toMatch(/timed out/i);
      // The cancel ends the pause: nothing is left waiting for a decision.
      await waitFor(async () => (await paused()).length === 0, 10_000, 'the pause to end', 50);
      expect(await paused()).toEqual([]);
    });

    it('the history says what each client saw', async () => {
      await setLive([]);
      await g.gateway.stop();
      const [timedOut] = recordsOf(g.d.db, 'nobody decides');
      expect(timedOut).toMatchObject({ outcome: 'allow', pauses: [{ breakpoint: 'default', decision: 'continue', by: 'timeout', timedOut: true }] });
      const [gaveUp] = recordsOf(g.d.db, 'gave up');
      expect(gaveUp).toMatchObject({ outcome: 'error', pauses: [{ breakpoint: 'slow', decision: 'cancelled', by: 'client' }] });
      expect(gaveUp!.errorReturned?.message).toMatch(/cancelled by the client while paused at breakpoint "slow" for \d+ ms.*no answer/);
    });
  });
});
