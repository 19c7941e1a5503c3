// The ordered list of migrations and the runner that applies the missing ones.
import type Database from 'better-sqlite3';
import { migration0001 } from './0001-core-schema';
import { migration0002 } from './0002-sink-events';
import { migration0003 } from './0003-payload-search';
import { migration0004 } from './0004-messages';
import type { Migration } from './types';

export type { Migration } from './types';

export const migrations: readonly Migration[] = [migration0001, migration0002, migration0003, migration0004];

export const LATEST_VERSION = migrations.length;

/** 'ICON' in ASCII: marks a file as an Interceptor Console history (PRAGMA application_id). */
export const APPLICATION_ID = 0x49434f4e;

/**
 * Applies every migration above the file's user_version, each in its own IMMEDIATE transaction.
 * The version is re-read inside the transaction: two processes opening a fresh file at once
 * must not both run migration 1.
 */
export function runMigrations(db: Database.Database, upTo = LATEST_VERSION): number[] {
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version > upTo) break;
    const apply = db.transaction(() => {
      const current = db.pragma('user_version', { simple: true }) as number;
      if (current >= migration.version) return false;
      if (current !== migration.version - 1) {
        throw new Error(`cannot apply migration ${migration.version} to a file at version ${current}`);
      }
      if (migration.version === 1) db.pragma(`application_id = ${APPLICATION_ID}`);
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
      return true;
    });
    if (apply.immediate()) applied.push(migration.version);
  }
  return applied;
}
