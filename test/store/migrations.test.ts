// Each numbered migration on a real file: what it creates, that it runs in one transaction (a failure
// leaves the file at the previous version with nothing half-created), and what it does to the rows a
// file already holds: rows written at version N-1, migrated to N, must read back exactly as before
// (and as a file that was at N from the start reads them), including what N adds for them.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APPLICATION_ID,
  exportToString,
  LATEST_VERSION,
  listExecutions,
  listSinkEvents,
  migrations,
  openStore,
  runMigrations,
  SqliteHistoryWriter,
} from '../../src/main/history/sqlite';
import { makeExecution, tempDir } from './fixtures';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function fileAt(version: number): Database.Database {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const path = join(dir, 'history.db');
  openStore(path, { migrateTo: version }).close();
  const db = new Database(path);
  cleanups.unshift(() => db.close());
  return db;
}

const objects = (db: Database.Database) => new Set(db.prepare(`SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'`).pluck().all() as string[]);
const version = (db: Database.Database) => db.pragma('user_version', { simple: true });

describe('migrations', () => {
  it('are numbered 1..N without gaps', () => {
    expect(migrations.map((m) => m.version)).toEqual(Array.from({ length: LATEST_VERSION }, (_, i) => i + 1));
  });

  it('0001 creates the core tables, marks the file as ours and records version 1', () => {
    const db = fileAt(1);
    expect(version(db)).toBe(1);
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    const names = objects(db);
    for (const t of ['meta', 'gateways', 'sessions', 'interceptors', 'executions', 'execution_details', 'payloads', 'execution_payloads', 'steps', 'replays']) {
      expect(names.has(t), t).toBe(true);
    }
    for (const i of ['executions_by_gateway', 'executions_by_event', 'executions_by_outcome', 'executions_by_target', 'executions_by_blocker']) {
      expect(names.has(i), i).toBe(true);
    }
    expect(names.has('sink_events')).toBe(false);
    // Steps cascade with their execution.
    db.exec(`INSERT INTO gateways (id, name, created_at, updated_at) VALUES (1, 'g', 'x', 'x');
      INSERT INTO interceptors (id, server, name) VALUES (1, 's', 'i');
      INSERT INTO executions (id, uuid, gateway_id, event, started_ms, duration_ms, outcome) VALUES (5, 'u', 1, 'tools/call', 0, 1, 'allow');
      INSERT INTO steps (execution_id, seq, phase, interceptor_id, type, pass, mode, fail_open, priority, start_ms, duration_ms, outcome, shadow)
        VALUES (5, 0, 'request', 1, 'validation', 'validation', 'active', 0, 0, 0, 1, 'allowed', 0);`);
    db.pragma('foreign_keys = ON');
    db.exec('DELETE FROM executions WHERE id = 5');
    expect(db.prepare('SELECT count(*) FROM steps').pluck().get()).toBe(0);
    expect(() =>
      db.exec(`INSERT INTO executions (id, uuid, gateway_id, event, started_ms, duration_ms, outcome) VALUES (6, 'v', 1, 'x', 0, 1, 'maybe')`),
    ).toThrow(/CHECK/);
  });

  it('0002 adds sink events with their indexes', () => {
    const db = fileAt(1);
    runMigrations(db, 2);
    expect(version(db)).toBe(2);
    const names = objects(db);
    expect(names.has('sink_events')).toBe(true);
    expect(names.has('sink_events_by_interceptor')).toBe(true);
    expect(names.has('executions_fts')).toBe(false);
  });

  it('0003 adds the search index and keeps it in step with deletions', () => {
    const db = fileAt(2);
    runMigrations(db, 3);
    expect(version(db)).toBe(3);
    db.exec(`INSERT INTO gateways (id, name, created_at, updated_at) VALUES (1, 'g', 'x', 'x');
      INSERT INTO executions (id, uuid, gateway_id, event, started_ms, duration_ms, outcome) VALUES (9, 'u', 1, 'tools/call', 0, 1, 'allow');
      INSERT INTO executions_fts (rowid, body) VALUES (9, '{"city":"Paris"}');`);
    const hits = db.prepare(`SELECT rowid FROM executions_fts WHERE executions_fts MATCH ?`).pluck();
    expect(hits.all('paris')).toEqual([9]);
    db.exec('DELETE FROM executions WHERE id = 9');
    expect(hits.all('paris')).toEqual([]);
  });

  it.each(migrations.map((m) => m.version))('migration %i runs in one transaction: a failure leaves the previous version intact', (v) => {
    const db = fileAt(v - 1);
    // Sabotage: an object the migration creates last already exists, so it fails at its very end.
    const sabotage: Record<number, string> = {
      1: 'CREATE TABLE replays (x)',
      2: 'CREATE TABLE sink_events_not_recorded (x)',
      3: 'CREATE TRIGGER executions_fts_delete AFTER DELETE ON gateways BEGIN SELECT 1; END',
      4: 'CREATE INDEX messages_by_execution ON gateways (name)',
    };
    db.exec(sabotage[v]!);
    const before = objects(db);
    expect(() => runMigrations(db, v)).toThrow();
    expect(version(db)).toBe(v - 1);
    expect(objects(db)).toEqual(before);
  });

  it('reopening a current file applies nothing', () => {
    const db = fileAt(LATEST_VERSION);
    expect(runMigrations(db)).toEqual([]);
  });
});

/**
 * A file at `version` holding real rows: recorded by today's recorder into a file at the latest
 * version, then copied table by table into a file migrated only to `version` (no migration alters a
 * table, so columns line up). Returns both: the latest-version file is what the migrated one must equal.
 */
async function rowsAt(version: number): Promise<{ old: string; reference: string }> {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const reference = join(dir, 'reference.db');
  const recorder = SqliteHistoryWriter.open(reference, { writerThread: false });
  recorder.recordGateway('alpha', { backend: { transport: 'stdio', command: 'server-everything' } });
  recorder.recordSession({ id: 's1', gateway: 'alpha', startedAt: '2025-06-01T12:00:00.000Z', transport: 'http' });
  recorder.recordExecution(makeExecution({ gateway: 'alpha', sessionId: 's1', text: 'invoice for Zanzibar', startedAt: '2025-06-01T12:00:01.000Z' }));
  recorder.recordExecution(
    makeExecution({ gateway: 'alpha', outcome: 'blocked', text: 'ssn of Quimby', startedAt: '2025-06-01T12:00:02.000Z', sinkRecorded: false }),
  );
  // A large payload (kept once in the payloads table) and an error reply.
  recorder.recordExecution(
    makeExecution({ gateway: 'beta', outcome: 'error', text: `Xylophone ${'long text '.repeat(5000)}`, startedAt: '2025-06-01T12:00:03.000Z' }),
  );
  await recorder.close();

  const old = join(dir, `at-${version}.db`);
  openStore(old, { migrateTo: version }).close();
  const db = new Database(old);
  try {
    db.exec(`ATTACH DATABASE '${reference.replace(/'/g, "''")}' AS ref`);
    const tables = db
      .prepare(`SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'executions_fts%'`)
      .pluck()
      .all() as string[];
    db.transaction(() => {
      for (const t of tables) db.exec(`INSERT OR REPLACE INTO main."${t}" SELECT * FROM ref."${t}"`);
    })();
    db.exec('DETACH DATABASE ref');
  } finally {
    db.close();
  }
  return { old, reference };
}

describe('migrations carry the rows a file already holds', () => {
  it.each(migrations.map((m) => m.version).filter((v) => v > 1))(
    'migration %i: rows written at the version before it read back the same, and get what it adds',
    async (v) => {
      const { old, reference } = await rowsAt(v - 1);
      const migrated = openStore(old, { migrateTo: v });
      const ref = openStore(reference, { create: false });
      try {
        expect(migrated.db.pragma('user_version', { simple: true })).toBe(v);
        expect(listExecutions(migrated.db).items).toHaveLength(3);
        // Every gateway, session and execution, field for field (export is lossless).
        expect(exportToString(migrated.db).jsonl).toBe(exportToString(ref.db).jsonl);
        if (v >= 2) {
          // Sink steps recorded before version 2 are on the Sinks screen too.
          const events = listSinkEvents(migrated.db, {}, { limit: 100 }).items;
          expect(events.length).toBeGreaterThan(0);
          expect(events).toEqual(listSinkEvents(ref.db, {}, { limit: 100 }).items);
        }
        if (v >= 4) {
          // Messages start with version 4: an upgraded file has the table, empty, with its indexes.
          expect(migrated.db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(0);
          expect(objects(migrated.db).has('messages_by_session')).toBe(true);
        }
        if (v === 3) {
          // Executions recorded before version 3 are found by the free-text search. (Only here: rowsAt copies
          // tables, not the contentless index, so a file copied at version 3 or later has no search rows.)
          for (const word of ['zanzibar', 'quimby', 'xylophone', 'alice', 'sent', 'Quim*']) {
            const ids = (db: Database.Database) => listExecutions(db, { search: word }).items.map((e) => e.id);
            expect(ids(migrated.db), word).toEqual(ids(ref.db));
            expect(ids(migrated.db).length, word).toBeGreaterThan(0);
          }
        }
      } finally {
        migrated.close();
        ref.close();
      }
    },
  );

  it('the search finds executions recorded before version 3 once the file is opened (upgraded)', async () => {
    const { old } = await rowsAt(2);
    const store = openStore(old);
    try {
      expect(listExecutions(store.db, { search: 'zanzibar' }).items.map((e) => e.outcome)).toEqual(['mutated']);
      expect(listExecutions(store.db, { search: 'quimby' }).items.map((e) => e.outcome)).toEqual(['blocked']);
    } finally {
      store.close();
    }
  });
});
