// A tools/call whose tool answered `isError: true` ([desktop-client] item 5.2) showed as plain "allowed" in
// Traffic. Each Traffic page row now says `toolError: true`, derived from the stored response on both
// engines (histories recorded before this change included), while the outcome stays what the chain decided;
// a blocked call's block message (also isError: true) is not a tool error.
import { describe, expect, it } from 'vitest';
import { HistoryService } from '../../src/main/services/history/history-service';
import type { HistoryStore, RecordingHistory } from '../../src/main/history/model/history-store';
import { MemoryRecorder } from '../../src/shared/trace/execution';
import { makeExecution } from '../store/fixtures';
import { ENGINES } from '../store/engines';

const failed = (text: string) => ({ content: [{ type: 'text', text }], isError: true });

describe.each(ENGINES)('$name: tool errors in the Traffic list', (engine) => {
  if (engine.skip) {
    it.skip(`skipped: ${engine.skip}`, () => {});
    return;
  }

  it('marks allowed and mutated calls whose result says isError, and nothing else, without changing the outcome', async () => {
    const history = await engine.create();
    const recorder = await history.recorder();
    const at = (s: number) => new Date(Date.UTC(2025, 6, 1, 12, 0, s)).toISOString();
    const allowedFailed = { ...makeExecution({ outcome: 'allow', startedAt: at(1) }), responseReturned: failed('disk full') };
    // A result past the inline size is stored apart (SQLite's payloads table): read from there too.
    const mutatedFailedLarge = { ...makeExecution({ outcome: 'mutated', startedAt: at(2) }), responseReturned: failed('x'.repeat(10_000)) };
    const allowedFine = makeExecution({ outcome: 'allow', startedAt: at(3) }); // isError: false
    const blocked = makeExecution({ outcome: 'blocked', startedAt: at(4) }); // the block message says isError: true
    const notATool = { ...makeExecution({ outcome: 'allow', startedAt: at(5) }), event: 'prompts/get', responseReturned: failed('n/a') };
    for (const r of [allowedFailed, mutatedFailedLarge, allowedFine, blocked, notATool]) recorder.recordExecution(r);
    await recorder.close();

    const store = await history.open();
    // The console reads every engine through the one history service: its pages read the store port only.
    for (const service of [new HistoryService(readsOnly(store))]) {
      const { items } = await service.page({}, undefined, 100);
      const row = (id: string) => items.find((i) => i.id === id)!;
      expect(
        items
          .filter((i) => i.toolError)
          .map((i) => i.id)
          .sort(),
      ).toEqual([allowedFailed.id, mutatedFailedLarge.id].sort());
      expect(row(allowedFailed.id).outcome).toBe('allow');
      expect(row(mutatedFailedLarge.id).outcome).toBe('mutated');
      expect(row(blocked.id).toolError).toBeUndefined();
    }
  });
});

/** The store as a recording history whose recorder nobody uses (the service's reads need only the store). */
function readsOnly(store: HistoryStore): RecordingHistory {
  return Object.assign(Object.create(store) as HistoryStore, { recorder: new MemoryRecorder(), redactor: undefined, setRedaction() {} });
}
