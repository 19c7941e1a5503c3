// Recording off the hop's critical path (#26): a recorder encodes what it is handed after the turn in which
// the gateway forwards the message (after-turn.ts), in order, and nothing is lost for it: a flush right
// after covers every record handed over before it, close() writes them, stats() counts them, and a
// caller that records in a loop still finds the recorder's memory bound in force.
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../src/shared/trace/execution';
import type { MessageRecord } from '../../src/shared/trace/messages';
import { MAX_WAITING } from '../../src/main/history/model/recording/after-turn';
import { ENGINES } from './engines';
import { makeExecution } from './fixtures';

const message = (id: string, executionId: string): MessageRecord => ({
  id,
  gateway: 'g',
  at: Date.now(),
  side: 'client',
  direction: 'in',
  kind: 'request',
  method: 'tools/call',
  jsonrpcId: 1,
  executionId,
  message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } },
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe.each(ENGINES)('$name recorder', (engine) => {
  describe.skipIf(engine.skip !== undefined)(engine.skip ?? 'runs', () => {
    it('encodes after the turn that handed the records over, in order, and a flush right after covers them', async () => {
      const history = await engine.create();
      const seen: string[] = [];
      const recorder = await history.recorder({
        redactor: {
          execution: (r: ExecutionRecord) => (seen.push(`execution ${r.id}`), r),
          message: (m: MessageRecord) => (seen.push(`message ${m.id}`), m),
        },
      });
      try {
        const a = makeExecution({ id: crypto.randomUUID() });
        const b = makeExecution({ id: crypto.randomUUID() });
        recorder.recordMessage!(message(crypto.randomUUID(), a.id));
        recorder.recordExecution(a);
        recorder.recordExecution(b);
        seen.push('the gateway writes to its peer'); // what the rest of the turn does: the hop's writes
        await nextTurn();
        expect(seen).toEqual(['the gateway writes to its peer', expect.stringMatching(/^message /), `execution ${a.id}`, `execution ${b.id}`]);

        // Handed over and flushed in the same turn: the flush waits for it too.
        const c = makeExecution({ id: crypto.randomUUID() });
        recorder.recordExecution(c);
        await recorder.flush();
        const store = await history.open();
        expect(await store.countExecutions()).toBe(3);
        expect((await store.getExecution(c.id))?.id).toBe(c.id);
      } finally {
        await recorder.close();
      }
    });

    it('counts a record handed over this turn as queued, and close() writes it', async () => {
      const history = await engine.create();
      const recorder = await history.recorder();
      const last = makeExecution({ id: crypto.randomUUID() });
      recorder.recordExecution(last);
      expect(recorder.stats().queued).toBe(1);
      await recorder.close();
      const store = await history.open();
      expect((await store.getExecution(last.id))?.id).toBe(last.id);
    });

    it(`runs at once past ${MAX_WAITING} records in one turn (the memory bound holds for a loop)`, async () => {
      const history = await engine.create();
      let encoded = 0;
      const recorder = await history.recorder({ redactor: { execution: (r: ExecutionRecord) => (encoded++, r) } });
      try {
        for (let i = 0; i < MAX_WAITING + 10; i++) recorder.recordExecution(makeExecution({ id: crypto.randomUUID() }));
        expect(encoded).toBe(MAX_WAITING);
        await nextTurn();
        expect(encoded).toBe(MAX_WAITING + 10);
      } finally {
        await recorder.close();
      }
    }, 60_000);
  });
});
