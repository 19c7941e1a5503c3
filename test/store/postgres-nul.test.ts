// A NUL character in what a client sends (a tool name, a session id, a method, a word of the arguments)
// must not keep its call out of a PostgreSQL history: PostgreSQL text cannot hold NUL, and before
// nul-free.ts such a record was refused by the server and counted as failed (SQLite stores it). Now the
// columns hold U+FFFD instead, and the record's JSON keeps the original.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgHistoryWriter, PgHistoryStore } from '../../src/main/store-postgres';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../fixtures/postgres-cluster';
import type { MessageRecord } from '../../src/shared/trace/messages';
import { makeExecution } from './fixtures';

const skip = postgresUnavailable();

describe.skipIf(skip)('PostgreSQL history: a NUL character from a client', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.stop());

  it('keeps the execution and the message, with U+FFFD in the columns and the original in the record', async () => {
    const url = await cluster.createDatabase();
    const writer = await openPgHistoryWriter(url, { batchSize: 10 });
    const store = await PgHistoryStore.open(url);
    try {
      const plain = makeExecution({ gateway: 'nul-gw' });
      const evil = makeExecution({ gateway: 'nul-gw', tool: 'hide\u0000me', sessionId: 's\u00001', text: 'secret\u0000word exfiltrate' });
      const message: MessageRecord = {
        id: randomUUID(), gateway: 'nul-gw', sessionId: 's\u00001', at: Date.now(), side: 'client', direction: 'in', kind: 'request',
        method: 'tools/\u0000call', jsonrpcId: 'id\u00001', message: { jsonrpc: '2.0', id: 'id\u00001', method: 'tools/\u0000call', params: { name: 'hide\u0000me' } },
      };
      writer.recordExecution(plain);
      writer.recordExecution(evil);
      writer.recordMessage(message);
      await writer.flush();

      expect(await store.countExecutions({ gateway: 'nul-gw' })).toBe(2);
      const page = await store.listExecutions({ gateway: 'nul-gw' });
      expect(page.items.map((i) => i.target).sort()).toEqual([plain.target, 'hide\uFFFDme'].sort());
      expect((await store.getExecutionRecord(evil.id))?.target).toBe('hide\u0000me');
      expect((await store.listExecutions({ gateway: 'nul-gw', search: 'exfiltrate' })).items.map((i) => i.id)).toEqual([evil.id]);

      const stored = await store.getMessage(message.id);
      expect(stored?.method).toBe('tools/\uFFFDcall');
      expect((JSON.parse(stored!.body) as { params: { name: string } }).params.name).toBe('hide\u0000me'); // the message as sent
    } finally {
      await writer.close();
      await store.close();
    }
  });
});
