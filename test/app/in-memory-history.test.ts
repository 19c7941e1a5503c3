// The in-memory history stands in where no store could be opened (and in tests of the API alone): it
// answers the same store port as the engines, from what its recorder received, so the history service and
// the handlers need no second path for it.
import { describe, expect, it } from 'vitest';
import { InMemoryHistory } from '../../src/main/services/in-memory-history';
import { exportToText } from '../../src/main/history/model/history-store';
import { HistoryService } from '../../src/main/services/history/history-service';
import { makeExecution } from '../store/fixtures';

const at = (s: number) => new Date(Date.UTC(2025, 6, 1, 12, 0, s)).toISOString();

describe('in-memory history', () => {
  it('pages newest first, filters, counts with a cap, and shows replays on the original', async () => {
    const history = new InMemoryHistory();
    const a = makeExecution({ gateway: 'g1', startedAt: at(1), outcome: 'allow' });
    const b = makeExecution({ gateway: 'g1', startedAt: at(2), outcome: 'blocked' });
    const c = makeExecution({ gateway: 'g2', startedAt: at(3), outcome: 'allow' });
    const replay = { ...makeExecution({ gateway: 'g1', startedAt: at(4), outcome: 'allow' }), replayOf: a.id };
    for (const r of [a, b, c, replay]) history.recorder.recordExecution(r);
    const service = new HistoryService(history);
    const first = await service.page({}, undefined, 2);
    expect(first.items.map((i) => i.id)).toEqual([replay.id, c.id]);
    expect((await service.page({}, first.nextCursor!, 2)).items.map((i) => i.id)).toEqual([b.id, a.id]);
    expect((await service.page({ gateway: 'g1', outcome: 'allow' }, undefined, 10)).items.map((i) => i.id)).toEqual([replay.id, a.id]);
    expect(await service.count({}, 3)).toEqual({ count: 3, capped: true });
    expect(await service.count({ gateway: 'g2' }, 3)).toEqual({ count: 1, capped: false });
    expect((await service.detail(a.id))?.replayedBy).toEqual([replay.id]);
    expect(await service.bulkPlan({}, 10)).toEqual({ toReplay: 3, replaysSkipped: 1, more: false });
  });

  it('exports in the export format and imports it back (and bare records, as tests write them)', async () => {
    const source = new InMemoryHistory();
    source.recorder.recordSession({ id: 's1', gateway: 'g1', startedAt: at(0) });
    const rec = makeExecution({ gateway: 'g1', sessionId: 's1', startedAt: at(1) });
    source.recorder.recordExecution(rec);
    const exported = await exportToText(source);
    expect(exported.count).toBe(1);
    expect(exported.jsonl.split('\n')[0]).toBe('{"format":"interceptor-console-history","version":1}');
    const target = new InMemoryHistory();
    expect(await target.importFromString(exported.jsonl)).toEqual({ executions: 1, duplicates: 0, sessions: 1, gateways: 0 });
    expect(await target.getSession('g1', 's1')).toEqual({ id: 's1', gateway: 'g1', startedAt: at(0) });
    expect((await target.importFromString(JSON.stringify(makeExecution({})))).executions).toBe(1);
    await expect(target.importFromString('{"a":1}\nnot json')).rejects.toThrow(/line 2 is not valid JSON/);
  });

  it('prunes by count, and previews it', async () => {
    const history = new InMemoryHistory();
    for (let i = 0; i < 5; i++) history.recorder.recordExecution(makeExecution({ startedAt: at(i) }));
    const service = new HistoryService(history);
    expect(await service.prunePreview({ maxExecutions: 2 })).toEqual({ wouldDelete: 3, total: 5 });
    expect(await service.prune({ maxExecutions: 2 })).toBe(3);
    expect(await history.countExecutions()).toBe(2);
  });
});
