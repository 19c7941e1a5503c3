// Recording off the hop's critical path (#26): a recorder encodes what it is handed after the turn in which
// the gateway forwards the message (after-turn.ts), in order, and nothing is lost for it: a flush right
// after covers every record handed over before it, close() writes them, stats() counts them, and a
// caller that records in a loop still finds the recorder's memory bound in force.
import { describe, expect, it } from 'vitest';
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

/** A payload that notes when the recorder first serializes it (JSON.stringify calls toJSON): when it encodes. */
function probe(seen: string[], what: string) {
  let noted = false; // PostgreSQL's recorder serializes an execution twice (its columns, then the whole record)
  return {
    toJSON: () => {
      if (!noted) seen.push(`encode ${what}`);
      noted = true;
      return what;
    },
  };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe.each(ENGINES)('$name recorder', (engine) => {
  describe.skipIf(engine.skip !== undefined)(engine.skip ?? 'runs', () => {
    it('encodes after the turn that handed the records over, in order, and a flush right after covers them', async () => {
      const history = await engine.create();
      const seen: string[] = [];
      const recorder = await history.recorder();
      try {
        const m = message(crypto.randomUUID(), 'x');
        m.message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: probe(seen, 'message') };
        const a = { ...makeExecution({ id: crypto.randomUUID() }), requestReceived: probe(seen, 'a') };
        const b = { ...makeExecution({ id: crypto.randomUUID() }), requestReceived: probe(seen, 'b') };
        recorder.recordMessage!(m);
        recorder.recordExecution(a);
        recorder.recordExecution(b);
        seen.push('the gateway writes to its peer'); // what the rest of the turn does: the hop's writes
        await nextTurn();
        expect(seen).toEqual(['the gateway writes to its peer', 'encode message', 'encode a', 'encode b']);

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

    it('redacts with the setting in force when a record was handed over, even if it changes within the turn', async () => {
      const history = await engine.create();
      let redacting = true;
      const hide = <T>(r: T): T => (redacting ? (JSON.parse(JSON.stringify(r).replaceAll('hunter2', '***')) as T) : r);
      const recorder = await history.recorder({ redactor: { execution: hide, message: hide } });
      const m = message(crypto.randomUUID(), 'x');
      (m.message as { params: Record<string, unknown> }).params.password = 'hunter2';
      recorder.recordMessage!(m);
      redacting = false; // the console's setting changes before the turn ends
      await recorder.close();
      const store = await history.open();
      const body = (await store.getMessage(m.id))!.body;
      expect(body).toContain('***');
      expect(body).not.toContain('hunter2');
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
      const seen: string[] = [];
      const recorder = await history.recorder();
      try {
        for (let i = 0; i < MAX_WAITING + 10; i++)
          recorder.recordExecution({ ...makeExecution({ id: crypto.randomUUID() }), requestReceived: probe(seen, `${i}`) });
        expect(seen).toHaveLength(MAX_WAITING);
        await nextTurn();
        expect(seen).toHaveLength(MAX_WAITING + 10);
      } finally {
        await recorder.close();
      }
    }, 60_000);
  });
});
