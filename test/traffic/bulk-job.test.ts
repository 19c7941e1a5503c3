// The bulk replay job's own logic: grouping of outcome changes, payload changes and failures, progress,
// and cancellation that stops taking new executions while the ones in flight finish and are counted.
// The replays come from a controllable replayer (the real one is exercised in traffic-api.test.ts).
import { describe, expect, it } from 'vitest';
import type { BulkJob } from '../../src/shared/api/models-traffic';
import type { ExecutionRecord } from '../../src/shared/trace/execution';
import { BulkReplayJob } from '../../src/main/services/traffic/bulk-replay';
import type { Replayer } from '../../src/main/services/traffic/replayer';
import type { ExecutionDetail } from '../../src/main/history/model/executions';
import { waitFor } from '../support/wait-for';

function original(id: string, outcome: ExecutionRecord['outcome'], responseReturned: unknown = { ok: 1 }): ExecutionDetail {
  return { id, gateway: 'g', event: 'tools/call', startedAt: '2026-01-01T00:00:00Z', durationMs: 1, outcome, responseReturned, sinkEvents: [], replayedBy: [] };
}

function replayer(replay: (o: ExecutionDetail) => Promise<ExecutionRecord>): Replayer & { closed: boolean } {
  const r = { closed: false, replay, close: async () => void (r.closed = true) };
  return r as unknown as Replayer & { closed: boolean };
}

describe('BulkReplayJob', () => {
  it('groups blocked → allowed, payload changes, unchanged and failures', async () => {
    const originals = new Map([
      ['a', original('a', 'blocked')],
      ['b', original('b', 'blocked')],
      ['c', original('c', 'allow', { text: 'old' })],
      ['d', original('d', 'allow')],
      ['e', original('e', 'allow')],
    ]);
    const rep = replayer(async (o) => {
      if (o.id === 'e') throw new Error('backend unreachable');
      const outcome = o.id === 'a' || o.id === 'b' ? 'allow' : o.outcome;
      const responseReturned = o.id === 'c' ? { text: 'new' } : o.responseReturned;
      return { ...o, id: `r-${o.id}`, outcome, responseReturned, replayOf: o.id };
    });
    const progress: BulkJob[] = [];
    let finished = false;
    const job = new BulkReplayJob([...originals.keys(), 'gone'], 'backend', {
      replayer: rep,
      detail: (id) => originals.get(id),
      progress: (v) => progress.push(v),
      finished: async () => void (finished = true),
    });
    await job.finishedPromise;
    const view = job.view();
    expect(view).toMatchObject({ state: 'done', done: 6, total: 6 });
    expect(view.groups.map((g) => [g.key, g.label, g.count])).toEqual([
      ['outcome:blocked>allow', 'blocked → allowed', 2],
      ['payload', 'payloads changed', 1],
      ['failed', 'could not replay', 2],
      ['unchanged', 'unchanged', 1],
    ]);
    expect(view.groups[0]!.pairs).toEqual([
      { originalId: 'a', replayId: 'r-a' },
      { originalId: 'b', replayId: 'r-b' },
    ]);
    expect(
      view.groups
        .find((g) => g.kind === 'failed')!
        .pairs.map((p) => p.error)
        .sort(),
    ).toEqual(['backend unreachable', 'no longer recorded (pruned?)']);
    expect(finished && rep.closed).toBe(true);
    expect(progress.at(-1)).toMatchObject({ state: 'done', done: 6 });
  });

  it('cancels: in-flight replays finish and count, nothing new starts, the state says cancelled', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `x${i}`);
    const gates: (() => void)[] = [];
    const rep = replayer((o) => new Promise((resolve) => gates.push(() => resolve({ ...o, id: `r-${o.id}` }))));
    const job = new BulkReplayJob(ids, 'chain-only', {
      replayer: rep,
      detail: (id) => original(id, 'allow'),
      progress: () => undefined,
      finished: async () => undefined,
    });
    // Wait for the first replays to start, then check no more than four did.
    await waitFor(() => gates.length >= 4, 10_000, 'four replays to start', 1);
    await new Promise((r) => setImmediate(r));
    expect(gates).toHaveLength(4); // four at a time
    job.cancel();
    expect(job.view().state).toBe('running');
    for (const open of gates.splice(0)) open();
    await job.finishedPromise;
    expect(job.view()).toMatchObject({ state: 'cancelled', done: 4, total: 20 });
    expect(job.view().groups).toEqual([expect.objectContaining({ key: 'unchanged', count: 4 })]);
  });
});
