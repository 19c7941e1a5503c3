// Issue [path-fidelity] item 5: a decision nested thousands of levels deep, sent to a headless gateway's
// control endpoint. It used to get 400 while the pause vanished: the client was never answered and nothing
// was recorded. A refused decision must leave the pause open (a later decision still works), and the call
// must be answered and recorded exactly once. Real parts: the built CLI gateway with its HTTP listener and
// control endpoint, server-everything, an SDK client, the SQLite history file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextPaused, startControlledGateway, toolCallRecords, type ControlledGateway } from './headless-helpers';
import { text } from './helpers';

const DEPTH = 5_000;

describe('a decision nested too deeply, through the control endpoint', { timeout: 120_000 }, () => {
  let g: ControlledGateway;
  const paused = async (): Promise<{ id: string; executionId: string }[]> =>
    (await (await fetch(`${g.control}/paused`, { headers: g.auth })).json()) as { id: string; executionId: string }[];

  beforeAll(async () => {
    g = await startControlledGateway('deep-decision');
    const put = await fetch(`${g.control}/breakpoints`, {
      method: 'PUT',
      headers: g.auth,
      body: JSON.stringify({ live: [{ id: 'deep', method: 'tools/call', target: 'echo', timeoutMs: 60_000 }] }),
    });
    expect(put.status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await g?.close();
  });

  const deep = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
  const cases = [
    { kind: 'edit', body: `{"decision":{"kind":"edit","payload":{"name":"echo","arguments":{"message":"edited","d":${deep}}}}}` },
    { kind: 'answer', body: `{"decision":{"kind":"answer","result":{"content":[{"type":"text","text":"mock"}],"d":${deep}}}}` },
  ];

  for (const { kind, body } of cases) {
    it(`a ${DEPTH}-level ${kind} is refused with 400, the pause stays, and a later continue answers the client`, async () => {
      // Settled either way, so that a gateway that never answers fails this test, not a later one.
      const call = g.client
        .callTool({ name: 'echo', arguments: { message: `deep-${kind}` } }, { timeout: 60_000 })
        .catch((e: Error) => ({ content: [{ text: `client error: ${e.message}` }] }));
      const open = await nextPaused<{ id: string; executionId: string }>(g);
      expect(open).toHaveLength(1);
      const res = await fetch(`${g.control}/paused/${open[0]!.id}`, { method: 'POST', headers: g.auth, body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/nested too deeply/);
      // Refused: the very same pause is still open and takes a decision.
      expect((await paused()).map((p) => p.id)).toEqual([open[0]!.id]);
      const decided = await fetch(`${g.control}/paused/${open[0]!.id}`, {
        method: 'POST',
        headers: g.auth,
        body: JSON.stringify({ decision: { kind: 'continue' }, by: 'ops' }),
      });
      expect(decided.status).toBe(200);
      expect(text(await call)).toBe(`Echo: deep-${kind}`);
    });
  }

  it('each call is recorded exactly once, with the pause and who decided it', async () => {
    await g.gateway.stop();
    const records = toolCallRecords(g.d.db);
    for (const { kind } of cases) {
      const mine = records.filter((r) => (r.requestReceived as { arguments?: { message?: string } }).arguments?.message === `deep-${kind}`);
      expect(mine, `records of the ${kind} call`).toHaveLength(1);
      expect(mine[0]!.outcome).toBe('allow');
      expect(mine[0]!.pauses).toMatchObject([{ breakpoint: 'deep', decision: 'continue', by: 'ops' }]);
    }
    expect(g.gateway.stderr).not.toContain('record rejected');
  });
});
