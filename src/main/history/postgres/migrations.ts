// The PostgreSQL schema, as numbered migrations of its own. Same meaning as the SQLite schema
// (src/main/history/sqlite/migrations): gateways, interned interceptors, sessions, narrow execution rows for the
// Traffic list, steps for the interceptor filters and latencies, sink events, replays. Differences that
// serve many writers: an identity key (insertion order; pages are ordered by start time, then key, so
// writers on different hosts never compete for a time-derived key), and the whole record kept as its
// JSON text (read back byte for byte) instead of SQLite's per-field line table.
// Many gateways start at once against one database: the runner takes an advisory lock, so exactly one
// applies each migration and the others find it applied.
import type pg from 'pg';

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

export const pgMigrations: PgMigration[] = [
  {
    version: 1,
    name: 'core-schema',
    sql: `
      CREATE TABLE gateways (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL UNIQUE,
        -- The host (machine or container) that last recorded for this gateway.
        host text,
        config_json text,
        created_at text NOT NULL,
        updated_at text NOT NULL
      );
      CREATE TABLE interceptors (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        server text NOT NULL,
        name text NOT NULL,
        UNIQUE (server, name)
      );
      CREATE TABLE sessions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        gateway_id integer NOT NULL REFERENCES gateways (id),
        session_key text NOT NULL,
        started_at text NOT NULL,
        -- The SessionRecord as recorded (JSON text, key order kept).
        record_json text NOT NULL,
        UNIQUE (gateway_id, session_key)
      );
      CREATE TABLE executions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        uuid text NOT NULL UNIQUE,
        gateway_id integer NOT NULL REFERENCES gateways (id),
        -- The host (machine or container) whose gateway recorded it: replicas of one gateway id differ here.
        host text,
        session_key text,
        event text NOT NULL,
        target text,
        started_ms bigint NOT NULL,
        -- Only set when the recorded startedAt is not the canonical ISO form of started_ms.
        started_at text,
        duration_ms double precision NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('allow', 'blocked', 'mutated', 'error')),
        error_code integer,
        blocked_interceptor_id integer REFERENCES interceptors (id),
        blocked_phase text,
        simulated boolean,
        replay_of text,
        -- Distinct lower-cased words of the payloads, error and block reason (no positions: a search
        -- means "every word appears"), the same words SQLite's FTS index gets.
        search tsvector NOT NULL,
        -- The ExecutionRecord as recorded (after redaction at rest), exactly.
        record_json text NOT NULL
      );
      -- Pages are newest first by (started_ms, id): every filter has an index ending in that order.
      CREATE INDEX executions_by_time ON executions (started_ms DESC, id DESC);
      CREATE INDEX executions_by_gateway ON executions (gateway_id, started_ms DESC, id DESC);
      CREATE INDEX executions_by_event ON executions (event, started_ms DESC, id DESC);
      CREATE INDEX executions_by_outcome ON executions (outcome, started_ms DESC, id DESC);
      CREATE INDEX executions_by_target ON executions (target, started_ms DESC, id DESC) WHERE target IS NOT NULL;
      CREATE INDEX executions_by_blocker ON executions (blocked_interceptor_id) WHERE blocked_interceptor_id IS NOT NULL;
      CREATE INDEX executions_by_session ON executions (session_key) WHERE session_key IS NOT NULL;
      CREATE INDEX executions_by_replay_of ON executions (replay_of) WHERE replay_of IS NOT NULL;
      CREATE INDEX executions_search ON executions USING gin (search);

      CREATE TABLE steps (
        execution_id bigint NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        phase text NOT NULL,
        interceptor_id integer NOT NULL REFERENCES interceptors (id),
        type text NOT NULL,
        outcome text NOT NULL,
        skipped text,
        shadow boolean NOT NULL,
        failed boolean NOT NULL,
        duration_ms double precision NOT NULL,
        PRIMARY KEY (execution_id, seq)
      );
      CREATE INDEX steps_by_interceptor ON steps (interceptor_id, execution_id);

      CREATE TABLE sink_events (
        execution_id bigint NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        gateway_id integer NOT NULL REFERENCES gateways (id),
        interceptor_id integer NOT NULL REFERENCES interceptors (id),
        event text NOT NULL,
        phase text NOT NULL,
        recorded boolean NOT NULL,
        metrics_json text,
        error_json text,
        at_ms bigint NOT NULL,
        -- The execution's start: the Sinks list is ordered like the Traffic list.
        started_ms bigint NOT NULL,
        PRIMARY KEY (execution_id, seq)
      );
      CREATE INDEX sink_events_by_time ON sink_events (started_ms DESC, execution_id DESC, seq DESC);
      CREATE INDEX sink_events_by_interceptor ON sink_events (interceptor_id, started_ms DESC, execution_id DESC, seq DESC);
    `,
  },
  {
    // Every JSON-RPC message a gateway saw and sent (the Messages view), with the meaning of SQLite's
    // table (store/migrations/0004-messages.ts): the text after redaction at rest, cut at 64 Ki
    // characters (truncated) with the size of the whole message in bytes, and the execution it belongs to.
    // The key is an identity (insertion order) like the executions'; pages are newest first by
    // (at_ms, id), and each index the view walks ends in that order, so a filtered page needs no sort.
    // session_key and method compare as bytes (COLLATE "C"): the sessions and methods lists skip through
    // their indexes in the order SQLite's do, whatever the server's default collation.
    version: 2,
    name: 'messages',
    sql: `
      CREATE TABLE messages (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        uuid text NOT NULL UNIQUE,
        gateway_id integer NOT NULL REFERENCES gateways (id),
        -- The host whose gateway recorded it (replicas of one gateway id differ here).
        host text,
        -- NULL: the gateway's own traffic outside any client session (interceptor discovery, connects).
        session_key text COLLATE "C",
        at_ms bigint NOT NULL,
        side text NOT NULL CHECK (side IN ('client', 'backend', 'interceptor')),
        direction text NOT NULL CHECK (direction IN ('in', 'out')),
        peer text,
        kind text NOT NULL CHECK (kind IN ('request', 'response', 'error', 'notification', 'connect-error')),
        method text COLLATE "C",
        -- A JSON number or string: read back as the type it was sent with.
        jsonrpc_id jsonb,
        -- Bytes of the whole message as JSON; body holds at most 64 Ki characters of it (truncated).
        size integer NOT NULL,
        execution_uuid text,
        truncated boolean NOT NULL DEFAULT false,
        body text NOT NULL
      );
      CREATE INDEX messages_by_gateway ON messages (gateway_id, at_ms DESC, id DESC);
      CREATE INDEX messages_by_session ON messages (gateway_id, session_key, at_ms DESC, id DESC);
      CREATE INDEX messages_by_method ON messages (gateway_id, method, at_ms DESC, id DESC);
      CREATE INDEX messages_by_execution ON messages (execution_uuid) WHERE execution_uuid IS NOT NULL;
      -- Retention deletes by time across gateways.
      CREATE INDEX messages_by_time ON messages (at_ms);
    `,
  },
  {
    version: 3,
    name: 'executions-by-host',
    // The Traffic screen filters by host (one gateway id scaled out over several hosts) and lists the
    // hosts as suggestions: a page is then an index walk, the list one seek per distinct host.
    sql: `CREATE INDEX executions_by_host ON executions (host, started_ms DESC, id DESC) WHERE host IS NOT NULL;`,
  },
];

export const PG_LATEST_VERSION = pgMigrations[pgMigrations.length - 1]!.version;

/** Any number: one lock id for "migrating the interceptor-console schema" in this database. */
const MIGRATION_LOCK = 0x1c0a50e;

export async function runPgMigrations(pool: pg.Pool, migrations: PgMigration[] = pgMigrations): Promise<{ from: number; to: number }> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS ic_schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
      const r = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM ic_schema_migrations');
      const from = r.rows[0]?.v ?? 0;
      const latest = migrations[migrations.length - 1]?.version ?? 0;
      if (from > latest) {
        throw new Error(`this database's history schema is version ${from}, newer than this build knows (${latest}): upgrade Interceptor Console`);
      }
      for (const m of migrations) {
        if (m.version <= from) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO ic_schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new Error(`migration ${m.version} (${m.name}) failed: ${(err as Error).message}`);
        }
      }
      return { from, to: Math.max(from, latest) };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
