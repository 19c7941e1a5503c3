// A numbered forward migration. Each one runs inside its own transaction (see runner.ts), so a
// failure leaves the file exactly at the previous version.
import type Database from 'better-sqlite3';

export interface Migration {
  /** 1-based and contiguous: the file's `PRAGMA user_version` is the last applied version. */
  version: number;
  name: string;
  up(db: Database.Database): void;
}
