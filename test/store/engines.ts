// The two history engines the store suites run on: SQLite (a real file in a temp folder) and
// PostgreSQL (a throwaway cluster started once per test file, a fresh database per history). A suite
// written against the store port (HistoryStore + Recorder) runs unchanged on both:
//   describe.each(ENGINES)('$name', (engine) => { ... engine.create() ... })
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { Recorder } from '../../src/shared/trace/execution';
import { openStore, SqliteHistoryWriter } from '../../src/main/history/sqlite';
import type { HistoryStore } from '../../src/main/history/model/history-store';
import { SqliteHistoryStore } from '../../src/main/history/sqlite/sqlite-history-store';
import { openPgHistoryWriter, PgHistoryStore } from '../../src/main/history/postgres';
import type { Redactor } from '../../src/main/history/model/redaction/redactor';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../fixtures/postgres-cluster';
import { tempDir } from './fixtures';

export interface History {
  /** Where the history is: a file path or a connection string. */
  location: string;
  /** `host` names the recording host in a shared (PostgreSQL) history; SQLite records no host. */
  recorder(options?: { batchSize?: number; redactor?: Pick<Redactor, 'execution' | 'message'>; host?: string }): Promise<Recorder>;
  /** The store port on the history (open it after the recorder closed, or alongside it). */
  open(): Promise<HistoryStore>;
}

export interface Engine {
  name: 'sqlite' | 'postgres';
  /** Why this engine cannot run here (the suite is skipped, saying so), or undefined. */
  skip: string | undefined;
  /** A new empty history; removed when the file's tests end. */
  create(): Promise<History>;
}

const cleanups: (() => unknown)[] = [];
let cluster: Promise<PostgresCluster> | undefined;
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  if (cluster) (await cluster).stop();
  cluster = undefined;
});

const sqlite: Engine = {
  name: 'sqlite',
  skip: undefined,
  async create() {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const path = join(t.dir, 'history.db');
    return {
      location: path,
      recorder: async (o = {}) =>
        SqliteHistoryWriter.open(path, {
          writerThread: false,
          ...(o.batchSize ? { batchSize: o.batchSize } : {}),
          ...(o.redactor ? { redactor: o.redactor } : {}),
        }),
      open: async () => {
        const s = new SqliteHistoryStore(openStore(path, { create: true }), true);
        cleanups.push(() => s.close());
        return s;
      },
    };
  },
};

const pgSkip = postgresUnavailable();
const postgres: Engine = {
  name: 'postgres',
  skip: pgSkip,
  async create() {
    cluster ??= startPostgres();
    const url = await (await cluster).createDatabase();
    return {
      location: url,
      recorder: async (o = {}) =>
        openPgHistoryWriter(url, {
          ...(o.batchSize ? { batchSize: o.batchSize } : {}),
          ...(o.redactor ? { redactor: o.redactor } : {}),
          ...(o.host ? { host: o.host } : {}),
        }),
      open: async () => {
        const s = await PgHistoryStore.open(url);
        cleanups.push(() => s.close());
        return s;
      },
    };
  },
};

export const ENGINES: Engine[] = [sqlite, postgres];
