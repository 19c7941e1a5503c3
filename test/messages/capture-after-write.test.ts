// Capture follows the write (#26): a message the session sends reaches its peer before the capture's work
// runs, and the captured order of a call over stdio stays what crossed the wire (client in, backend out,
// backend in, client out), through the real CLI gateway recording into a real file.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tapClientSink } from '../../src/main/gateway/session/messages';
import type { SessionTap } from '../../src/main/gateway/record/message-capture';
import { cliPath, everythingBackend, LineClient, writeConfig } from '../gateway/helpers';

describe('message capture after the write', () => {
  it('hands a message to the client before the tap sees it, and still taps one whose send throws', () => {
    const order: string[] = [];
    const tap = { toClient: (m: { id: number }) => order.push(`captured ${m.id}`) } as unknown as SessionTap;
    const sink = tapClientSink(
      {
        send: (m) => {
          order.push(`sent ${(m as { id: number }).id}`);
          if ((m as { id: number }).id === 2) throw new Error('closed');
        },
      },
      tap,
    );
    sink.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(() => sink.send({ jsonrpc: '2.0', id: 2, result: {} })).toThrow('closed');
    expect(order).toEqual(['sent 1', 'captured 1', 'sent 2', 'captured 2']);
  });

  it('records a call over stdio in wire order: client in, backend out, backend in, client out', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ic-capture-order-'));
    const db = join(dir, 'history.db');
    const client = new LineClient([cliPath, 'gateway', '--config', writeConfig({ backend: everythingBackend }), '--db', db, '--quiet', '--no-watch']);
    try {
      await client.initialize();
      client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      for (let id = 10; id < 13; id++) {
        const answer = await client.request(id, 'tools/call', { name: 'echo', arguments: { message: `m${id}` } });
        expect(JSON.stringify(answer)).toContain(`Echo: m${id}`);
      }
    } finally {
      await client.stop();
    }
    const store = new Database(db, { readonly: true });
    try {
      const rows = store.prepare(`SELECT side, direction, kind, execution_uuid AS execution FROM messages WHERE method = 'tools/call' ORDER BY id`).all() as {
        side: string;
        direction: string;
        kind: string;
        execution: string;
      }[];
      expect(rows).toHaveLength(12);
      for (let call = 0; call < 3; call++) {
        const four = rows.slice(call * 4, call * 4 + 4);
        expect(four.map((r) => `${r.side} ${r.direction} ${r.kind}`)).toEqual([
          'client in request',
          'backend out request',
          'backend in response',
          'client out response',
        ]);
        expect(new Set(four.map((r) => r.execution)).size).toBe(1);
      }
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
