// Settings reach the store: retention prunes as soon as it is saved (and periodically after).
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { SqliteHistory } from '../../src/main/history/sqlite';
import { tempDir, testCore } from './helpers';

function execution(i: number) {
  return {
    id: `00000000-0000-4000-8000-00000000000${i}`,
    gateway: 'g',
    event: 'tools/call',
    startedAt: new Date(Date.now() - (10 - i) * 1000).toISOString(),
    durationMs: 1,
    outcome: 'allow' as const,
  };
}

describe('history settings', () => {
  it('prunes to the retention limit when it is saved', async () => {
    const t = tempDir();
    const core = testCore(t.dir);
    try {
      await core.start({ demo: false });
      const jsonl = [1, 2, 3, 4, 5].map((i) => JSON.stringify(execution(i))).join('\n');
      expect(await core.dispatcher.dispatch('history.import', { jsonl })).toEqual({ ok: true, value: { imported: 5 } });
      const saved = await core.dispatcher.dispatch('settings.update', { retention: { maxExecutions: 2, maxAgeDays: null } });
      expect(saved.ok).toBe(true);
      const page = await core.dispatcher.dispatch('history.query', {});
      expect(page.ok && (page.value as { items: { id: string }[] }).items.map((e) => e.id)).toEqual([execution(5).id, execution(4).id]);
    } finally {
      await core.shutdown();
      t.cleanup();
    }
  });
});

describe('redaction setting', () => {
  it('refuses a path the store cannot parse, and redacts what is recorded with a valid one', async () => {
    const t = tempDir();
    const history = SqliteHistory.open(join(t.dir, 'history.db'));
    const core = testCore(t.dir, { history });
    try {
      await core.start({ demo: false });
      const bad = await core.dispatcher.dispatch('settings.update', { redactPaths: ['arguments[oops'] });
      expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      expect(!bad.ok && bad.error.message).toMatch(/arguments\[oops/);
      expect(core.settings.get().redactPaths).toEqual([]);

      expect((await core.dispatcher.dispatch('settings.update', { redactPaths: ['arguments.password'] })).ok).toBe(true);
      const record = { ...execution(1), outcome: 'allow' as const, requestReceived: { name: 'login', arguments: { user: 'ann', password: 'hunter2' } } };
      history.recorder.recordExecution(record);
      await history.recorder.flush();
      const detail = await core.dispatcher.dispatch('history.detail', { executionId: record.id });
      expect(detail).toMatchObject({ ok: true, value: { requestReceived: { arguments: { user: 'ann', password: '[REDACTED]' } } } });
    } finally {
      await core.shutdown();
      t.cleanup();
    }
  });
});
