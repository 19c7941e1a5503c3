// Values a client or backend sends that PostgreSQL's columns cannot hold must not keep the call out of a
// PostgreSQL history (before column-values.ts the server refused the record and it was counted as failed;
// SQLite stores it): a NUL character (tool name, session id, method, a word of the arguments), a tool name
// too long for a btree index entry, a JSON-RPC error code past a 32-bit integer. The columns hold a
// storable stand-in; the record's JSON keeps the original.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgHistoryWriter, PgHistoryStore } from '../../src/main/history/postgres';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../fixtures/postgres-cluster';
import type { MessageRecord } from '../../src/shared/trace/messages';
import { makeExecution } from './fixtures';
import { INDEXED_TEXT_MAX } from '../../src/main/history/postgres/column-values';

const skip = postgresUnavailable();

describe.skipIf(skip)('PostgreSQL history: values its columns cannot hold', () => {
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
        id: randomUUID(),
        gateway: 'nul-gw',
        sessionId: 's\u00001',
        at: Date.now(),
        side: 'client',
        direction: 'in',
        kind: 'request',
        method: 'tools/\u0000call',
        jsonrpcId: 'id\u00001',
        message: { jsonrpc: '2.0', id: 'id\u00001', method: 'tools/\u0000call', params: { name: 'hide\u0000me' } },
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

  it('keeps an execution with a tool name too long to index and an error code past a 32-bit integer', async () => {
    const url = await cluster.createDatabase();
    const writer = await openPgHistoryWriter(url, { batchSize: 10 });
    const store = await PgHistoryStore.open(url);
    try {
      // Random text does not compress: 8,000 characters is past the ~2.7 kB a btree entry may hold.
      const longName =
        Array.from({ length: 250 }, () => randomUUID())
          .join('')
          .slice(0, 8000) + '\u{1F600}';
      const long = makeExecution({ gateway: 'limits-gw', tool: longName });
      const code = { ...makeExecution({ gateway: 'limits-gw' }), errorReturned: { code: 2 ** 40, message: 'a backend said so' } };
      writer.recordExecution(long);
      writer.recordExecution(code);
      await writer.flush();
      expect(writer.stats()).toMatchObject({ written: 2, failed: 0 });

      const items = (await store.listExecutions({ gateway: 'limits-gw' })).items;
      const stored = items.find((i) => i.id === long.id);
      expect(stored?.target).toBe(long.target!.slice(0, INDEXED_TEXT_MAX));
      expect((await store.getExecutionRecord(long.id))?.target).toBe(long.target);
      expect((await store.getExecutionRecord(code.id))?.errorReturned?.code).toBe(2 ** 40);
    } finally {
      await writer.close();
      await store.close();
    }
  });
});
