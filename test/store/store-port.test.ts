// What the store port promises beyond the Traffic queries, on both engines: retention by count and
// age, export → import round trips (all or nothing, duplicates skipped, redaction at rest applied),
// and recording that is idempotent (the same execution recorded twice, e.g. by a restarted gateway
// replaying its work, is stored once).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/main/history/model/redaction/redactor';
import { exportToText } from '../../src/main/history/model/history-store';
import { makeExecution } from './fixtures';
import { ENGINES, type History } from './engines';

const DAY = 86_400_000;
const NOW = Date.UTC(2025, 6, 1);

/** 10 days, 20 executions a day, one session a day. */
async function tenDays(history: History): Promise<void> {
  const recorder = await history.recorder();
  for (let day = 10; day >= 1; day--) {
    recorder.recordSession({ id: `day-${day}`, gateway: 'demo', startedAt: new Date(NOW - day * DAY).toISOString() });
    for (let i = 0; i < 20; i++) {
      const rec = makeExecution({
        sessionId: `day-${day}`,
        startedAt: new Date(NOW - day * DAY + i * 1000).toISOString(),
        outcome: 'allow',
        text: `day${day} note`,
      });
      recorder.recordExecution(rec);
    }
  }
  await recorder.close();
}

describe.each(ENGINES)('$name store port', (engine) => {
  if (engine.skip) {
    it.skip(`skipped: ${engine.skip}`, () => {});
    return;
  }

  it('retention keeps the newest N executions, and what it would delete is said beforehand', async () => {
    const history = await engine.create();
    await tenDays(history);
    const store = await history.open();
    expect(await store.countPrunable({ maxExecutions: 50 })).toBe(150);
    expect(await store.prune({ maxExecutions: 50 })).toMatchObject({ deleted: 150, messagesDeleted: 0 });
    expect(await store.countExecutions()).toBe(50);
    const oldest = (await store.listExecutions({}, { limit: 1000 })).items.at(-1)!;
    expect(oldest.startedAt).toBe(new Date(NOW - 3 * DAY + 10 * 1000).toISOString());
    // Sink events went with their executions, and the search index forgot them.
    expect((await store.listSinkEvents({}, { limit: 1000 })).items).toHaveLength(100);
    expect(await store.countExecutions({ search: 'day9' })).toBe(0);
    expect(await store.countExecutions({ search: 'day3' })).toBe(10);
  });

  it('retention by age, and both limits together (the stricter wins)', async () => {
    const history = await engine.create();
    await tenDays(history);
    const store = await history.open();
    expect(await store.countPrunable({ maxAgeDays: 4.5, now: NOW })).toBe(120);
    expect((await store.prune({ maxAgeDays: 4.5, now: NOW })).deleted).toBe(120);
    expect(await store.countExecutions({ until: NOW - 4.5 * DAY })).toBe(0);
    expect((await store.prune({ maxAgeDays: 100, now: NOW })).deleted).toBe(0);
    expect((await store.prune({ maxAgeDays: 2.5, maxExecutions: 70, now: NOW })).deleted).toBe(40);
    expect(await store.countExecutions()).toBe(40);
  });

  it('exports and imports: a round trip keeps every record, a second import skips them all', async () => {
    const source = await engine.create();
    await tenDays(source);
    const from = await source.open();
    const exported = await exportToText(from);
    expect(exported.count).toBe(200);
    const target = await engine.create();
    const to = await target.open();
    expect(await to.importFromString(exported.jsonl)).toEqual({ executions: 200, duplicates: 0, sessions: 10, gateways: 1 });
    expect(await to.importFromString(exported.jsonl)).toMatchObject({ executions: 0, duplicates: 200 });
    const again = await exportToText(to);
    expect(again.count).toBe(200);
    // The same records, in the same order (oldest first).
    const records = (text: string) =>
      text
        .split('\n')
        .filter((l) => l.startsWith('{"type":"execution"'))
        .map((l) => JSON.parse(l) as unknown);
    expect(records(again.jsonl)).toEqual(records(exported.jsonl));
    const first = (await from.listExecutions({}, { limit: 1 })).items[0]!;
    expect(await to.getExecutionRecord(first.id)).toEqual(await from.getExecutionRecord(first.id));
    // A filtered export holds only what matches, with its session.
    const one = await exportToText(from, { sessionId: 'day-3' });
    expect(one.count).toBe(20);
    expect(one.jsonl.split('\n').filter((l) => l.startsWith('{"type":"session"'))).toHaveLength(1);
  });

  it('imports an export file (the CLI import), all or nothing like a string', async () => {
    const source = await engine.create();
    await tenDays(source);
    const exported = await exportToText(await source.open());
    const dir = mkdtempSync(join(tmpdir(), 'ic-port-import-'));
    try {
      const file = join(dir, 'history.jsonl');
      writeFileSync(file, exported.jsonl);
      const to = await (await engine.create()).open();
      expect(await to.importFromFile(file)).toEqual({ executions: 200, duplicates: 0, sessions: 10, gateways: 1 });
      writeFileSync(file, `${exported.jsonl}not json\n`);
      const empty = await (await engine.create()).open();
      await expect(empty.importFromFile(file)).rejects.toThrow(/line 213/);
      expect(await empty.countExecutions()).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("prune's report: the counts both engines share, and the file figures only where there is a file", async () => {
    const history = await engine.create();
    await tenDays(history);
    const store = await history.open();
    const report = await store.prune({ maxExecutions: 100, fullVacuum: true });
    expect(report).toMatchObject({ deleted: 100, messagesDeleted: 0 });
    if (engine.name === 'sqlite') {
      expect(report).toMatchObject({ sessionsDeleted: 5, payloadsDeleted: expect.any(Number) as number });
      expect(report.bytesAfter).toBeLessThanOrEqual(report.bytesBefore!);
    } else expect(report.bytesBefore).toBeUndefined();
  });

  it('imports all or nothing, naming the bad line, and applies redaction at rest', async () => {
    const history = await engine.create();
    const store = await history.open();
    const rec = makeExecution({ text: 'secret plan' });
    const header = '{"format":"interceptor-console-history","version":1}';
    const good = JSON.stringify({ type: 'execution', execution: rec });
    await expect(store.importFromString(`${header}\n${good}\n{"type":"execution","execution":{"id":""}}\n`)).rejects.toThrow(/line 3/);
    expect(await store.countExecutions()).toBe(0);
    const redactor = createRedactor({ paths: ['$.arguments.body'] });
    expect((await store.importFromString(`${header}\n${good}\n`, { redactor })).executions).toBe(1);
    const stored = await store.getExecutionRecord(rec.id);
    expect(stored?.requestReceived).toEqual({ name: 'send_email', arguments: { to: 'alice@example.com', body: '[REDACTED]' } });
    expect(JSON.stringify(stored?.requestTrace)).not.toContain('secret plan');
  });

  it('records an execution once however often it is handed over (a restarted writer replaying its work)', async () => {
    const history = await engine.create();
    const rec = makeExecution({ gateway: 'g1' });
    for (let i = 0; i < 2; i++) {
      const recorder = await history.recorder();
      recorder.recordExecution(rec);
      recorder.recordExecution(rec);
      await recorder.close();
    }
    const store = await history.open();
    expect(await store.countExecutions()).toBe(1);
    expect((await store.listGateways()).map((g) => g.name)).toEqual(['g1']);
  });
});
