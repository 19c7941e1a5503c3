// Each numbered migration on a real file: what it creates, and that it runs in one transaction
// (a failure leaves the file at the previous version with nothing half-created).
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { APPLICATION_ID, LATEST_VERSION, migrations, openStore, runMigrations } from '../../src/main/store';
import { tempDir } from './fixtures';

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

const objects = (db: Database.Database) =>
  new Set((db.prepare(`SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'`).pluck().all() as string[]));
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
    expect(() => db.exec(`INSERT INTO executions (id, uuid, gateway_id, event, started_ms, duration_ms, outcome) VALUES (6, 'v', 1, 'x', 0, 1, 'maybe')`)).toThrow(/CHECK/);
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
