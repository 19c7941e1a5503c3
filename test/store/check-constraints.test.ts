// The enumerated columns' CHECK constraints (migrations/check-constraints.ts): written as `= … OR = …` so that
// an insert compiles to comparisons, not an ephemeral B-tree built per row ([path-speed]); a file created with
// the IN form is rewritten when opened for writing, keeping every row, its version, and what it refuses.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { LATEST_VERSION, openStore, SqliteHistoryWriter } from '../../src/main/history/sqlite';
import { rewriteInListChecks } from '../../src/main/history/sqlite/migrations/check-constraints';
import { makeExecution, tempDir } from './fixtures';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function newPath(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return join(dir, 'history.db');
}

const definition = (db: Database.Database, table: string) =>
  db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?`).pluck().get(table) as string;

/** Whether inserting a row into `table` builds an ephemeral table (what an IN-list CHECK costs per row). */
function insertBuildsEphemeral(db: Database.Database, table: 'executions' | 'messages'): boolean {
  const columns =
    table === 'messages'
      ? `(id, uuid, gateway_id, at_ms, side, direction, kind, size, body) VALUES (1, 'u', 1, 0, 'client', 'in', 'request', 2, '{}')`
      : `(id, uuid, gateway_id, event, started_ms, duration_ms, outcome) VALUES (1, 'u', 1, 'tools/call', 0, 1, 'allow')`;
  const plan = db.prepare(`EXPLAIN INSERT INTO ${table} ${columns}`).all() as { opcode: string }[];
  return plan.some((op) => op.opcode === 'OpenEphemeral');
}

/** Puts back the definitions files created before the change hold (as the previous migrations wrote them). */
function writeOldDefinitions(path: string): void {
  const db = new Database(path);
  try {
    const old: Record<string, [now: string, before: string][]> = {
      executions: [
        [
          "CHECK (outcome = 'allow' OR outcome = 'blocked' OR outcome = 'mutated' OR outcome = 'error')",
          "CHECK (outcome IN ('allow', 'blocked', 'mutated', 'error'))",
        ],
      ],
      messages: [
        ["CHECK (side = 'client' OR side = 'backend' OR side = 'interceptor')", "CHECK (side IN ('client', 'backend', 'interceptor'))"],
        ["CHECK (direction = 'in' OR direction = 'out')", "CHECK (direction IN ('in', 'out'))"],
        [
          "CHECK (kind = 'request' OR kind = 'response' OR kind = 'error' OR kind = 'notification' OR kind = 'connect-error')",
          "CHECK (kind IN ('request', 'response', 'error', 'notification', 'connect-error'))",
        ],
      ],
    };
    db.unsafeMode(true);
    db.transaction(() => {
      const v = db.pragma('schema_version', { simple: true }) as number;
      db.pragma('writable_schema = ON');
      for (const [table, pairs] of Object.entries(old)) {
        let sql = definition(db, table);
        for (const [now, before] of pairs) {
          expect(sql).toContain(now);
          sql = sql.replace(now, before);
        }
        db.prepare(`UPDATE sqlite_schema SET sql = ? WHERE type = 'table' AND name = ?`).run(sql, table);
      }
      db.pragma(`schema_version = ${v + 1}`);
      db.pragma('writable_schema = OFF');
    })();
  } finally {
    db.close();
  }
}

function refuses(db: Database.Database, sql: string): string {
  try {
    db.prepare(sql).run();
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
}

function expectSameRefusals(db: Database.Database): void {
  expect(
    refuses(db, `INSERT INTO messages (uuid, gateway_id, at_ms, side, direction, kind, size, body) VALUES ('x1', 1, 0, 'nobody', 'in', 'request', 2, '{}')`),
  ).toMatch(/CHECK constraint failed/);
  expect(
    refuses(db, `INSERT INTO messages (uuid, gateway_id, at_ms, side, direction, kind, size, body) VALUES ('x2', 1, 0, 'client', 'up', 'request', 2, '{}')`),
  ).toMatch(/CHECK constraint failed/);
  expect(
    refuses(db, `INSERT INTO messages (uuid, gateway_id, at_ms, side, direction, kind, size, body) VALUES ('x3', 1, 0, 'client', 'in', 'Request', 2, '{}')`),
  ).toMatch(/CHECK constraint failed/);
  expect(
    refuses(db, `INSERT INTO executions (uuid, gateway_id, event, started_ms, duration_ms, outcome) VALUES ('x4', 1, 'tools/call', 0, 1, 'maybe')`),
  ).toMatch(/CHECK constraint failed/);
  expect(
    refuses(
      db,
      `INSERT INTO messages (uuid, gateway_id, at_ms, side, direction, kind, size, body) VALUES ('x5', 1, 0, 'interceptor', 'out', 'connect-error', 2, '{}')`,
    ),
  ).toBe('accepted');
  expect(
    refuses(db, `INSERT INTO executions (uuid, gateway_id, event, started_ms, duration_ms, outcome) VALUES ('x6', 1, 'tools/call', 0, 1, 'mutated')`),
  ).toBe('accepted');
}

describe('CHECK constraints of enumerated columns', () => {
  it('a new file checks them with comparisons: no ephemeral table per inserted row, the same values refused', () => {
    const store = openStore(newPath());
    try {
      expect(insertBuildsEphemeral(store.db, 'messages')).toBe(false);
      expect(insertBuildsEphemeral(store.db, 'executions')).toBe(false);
      store.db.prepare(`INSERT INTO gateways (id, name, created_at, updated_at) VALUES (1, 'g', '', '')`).run();
      expectSameRefusals(store.db);
    } finally {
      store.close();
    }
  });

  it('a file created with IN lists is rewritten when opened for writing: rows, version and refusals kept', async () => {
    const path = newPath();
    const recorder = SqliteHistoryWriter.open(path, { writerThread: false });
    const records = [makeExecution({ gateway: 'old-file' }), makeExecution({ gateway: 'old-file', outcome: 'blocked' })];
    for (const r of records) recorder.recordExecution(r);
    recorder.recordMessage({
      id: 'm-1',
      gateway: 'old-file',
      at: Date.now(),
      side: 'client',
      direction: 'in',
      kind: 'request',
      method: 'tools/call',
      message: {},
    });
    await recorder.close();
    writeOldDefinitions(path);

    const before = new Database(path); // writable: a read-only connection compiles no CHECK at all
    expect(insertBuildsEphemeral(before, 'messages')).toBe(true); // the cost this removes
    before.close();
    // A connection of another process, open across the rewrite, reads the new schema before its next statement.
    const reader = new Database(path, { readonly: true });
    cleanups.unshift(() => reader.close());
    const count = reader.prepare('SELECT (SELECT count(*) FROM executions) + (SELECT count(*) FROM messages)').pluck();
    expect(count.get()).toBe(3);

    const store = openStore(path);
    try {
      expect(definition(store.db, 'messages')).not.toMatch(/ IN \(/);
      expect(definition(store.db, 'executions')).not.toMatch(/ IN \(/);
      expect(insertBuildsEphemeral(store.db, 'messages')).toBe(false);
      expect(insertBuildsEphemeral(store.db, 'executions')).toBe(false);
      expect(store.db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(store.db.prepare('SELECT uuid FROM executions ORDER BY uuid').pluck().all()).toEqual(records.map((r) => r.id).sort());
      expectSameRefusals(store.db);
      expect(rewriteInListChecks(store.db)).toEqual([]); // once only
    } finally {
      store.close();
    }
    expect(count.get()).toBe(5);
    expect(definition(reader, 'messages')).toContain("side = 'client' OR side = 'backend'");
  });

  it('a file opened read-only is read as it is, IN lists and all', () => {
    const path = newPath();
    openStore(path).close();
    writeOldDefinitions(path);
    const store = openStore(path, { readonly: true });
    try {
      expect(definition(store.db, 'messages')).toContain("side IN ('client', 'backend', 'interceptor')");
      expect(store.db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(0);
    } finally {
      store.close();
    }
  });
});
