// Version 1: gateways, sessions, interned interceptor identities, executions (a narrow row of what
// lists filter and show, and a detail row with everything else), steps, large payloads, replays.
import { checkOneOf } from './check-constraints';
import type { Migration } from './types';

export const migration0001: Migration = {
  version: 1,
  name: 'core-schema',
  up(db) {
    db.exec(`
      -- Small key/value facts about the file (payload_generation: see retention/prune.ts).
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      INSERT INTO meta (key, value) VALUES ('payload_generation', '0');

      CREATE TABLE gateways (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        -- The gateway's config as last recorded (JSON), for "what chain produced this?".
        config_json TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );

      CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        gateway_id INTEGER NOT NULL REFERENCES gateways (id),
        session_key TEXT NOT NULL,
        started_at TEXT NOT NULL,
        client_info_json TEXT,
        principal_json TEXT,
        protocol_version TEXT,
        transport TEXT,
        extra_json TEXT,
        UNIQUE (gateway_id, session_key)
      );

      -- Interceptor identities (server/name, A7) are interned: steps repeat them millions of times.
      -- Rows are never deleted, so writers may cache the ids for the life of the process.
      CREATE TABLE interceptors (
        id INTEGER PRIMARY KEY,
        server TEXT NOT NULL,
        name TEXT NOT NULL,
        UNIQUE (server, name)
      );

      -- What the Traffic list filters, sorts and shows: kept narrow so that index walks, counts and
      -- aggregates over a million rows touch few pages.
      CREATE TABLE executions (
        -- started_ms * 1024 + n (sql/execution-ids.ts): the key itself is time-ordered, so
        -- "newest first", time ranges, keyset cursors and the search index all walk one order.
        id INTEGER PRIMARY KEY,
        uuid TEXT NOT NULL UNIQUE,
        gateway_id INTEGER NOT NULL REFERENCES gateways (id),
        session_key TEXT,
        jsonrpc_id, -- no declared type: keeps a number a number and a string a string
        event TEXT NOT NULL,
        target TEXT,
        started_ms INTEGER NOT NULL,
        -- Only set when the recorded startedAt is not the canonical ISO form of started_ms.
        started_at TEXT,
        duration_ms REAL NOT NULL,
        outcome TEXT NOT NULL ${checkOneOf('executions', 'outcome')},
        error_code INTEGER,
        blocked_interceptor_id INTEGER REFERENCES interceptors (id),
        blocked_phase TEXT,
        simulated INTEGER
      );
      -- Each index ends with the implicit id, so "WHERE x = ? ORDER BY id DESC" reads a page in order.
      CREATE INDEX executions_by_gateway ON executions (gateway_id);
      CREATE INDEX executions_by_event ON executions (event);
      CREATE INDEX executions_by_outcome ON executions (outcome);
      CREATE INDEX executions_by_target ON executions (target) WHERE target IS NOT NULL;
      CREATE INDEX executions_by_blocker ON executions (blocked_interceptor_id) WHERE blocked_interceptor_id IS NOT NULL;

      -- Everything else about an execution, read when one is opened or exported.
      -- Payloads are stored once per execution: 'bodies' holds each distinct JSON text on its own
      -- line (JSON.stringify never emits a raw newline), and every payload field is a line number.
      -- A line '#<id>' stands for a large payload kept once in the payloads table.
      CREATE TABLE execution_details (
        execution_id INTEGER PRIMARY KEY REFERENCES executions (id) ON DELETE CASCADE,
        bodies TEXT NOT NULL,
        request_received INTEGER,
        request_forwarded INTEGER,
        response_received INTEGER,
        response_returned INTEGER,
        error_json TEXT,
        blocked_json TEXT,
        -- Chain trace headers, without steps (in steps) and payloads (line numbers below).
        request_trace_json TEXT,
        request_trace_input INTEGER,
        request_trace_final INTEGER,
        response_trace_json TEXT,
        response_trace_input INTEGER,
        response_trace_final INTEGER,
        -- Fields of the record this schema does not know yet, kept so that nothing is lost.
        extra_json TEXT
      );

      -- Large payloads (sql/payload-size.ts), stored once across all executions by the SHA-256 of
      -- their text: a 1 MB result seen as received, returned, step input and trace input costs 1 MB.
      CREATE TABLE payloads (
        id INTEGER PRIMARY KEY,
        hash BLOB NOT NULL UNIQUE,
        size INTEGER NOT NULL,
        body TEXT NOT NULL
      );
      -- Which executions use which large payload: retention deletes payloads nobody uses.
      CREATE TABLE execution_payloads (
        execution_id INTEGER NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
        payload_id INTEGER NOT NULL,
        PRIMARY KEY (execution_id, payload_id)
      ) WITHOUT ROWID;

      -- One row per TraceStep of both phase traces, request phase first.
      CREATE TABLE steps (
        execution_id INTEGER NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        phase TEXT NOT NULL,
        interceptor_id INTEGER NOT NULL REFERENCES interceptors (id),
        type TEXT NOT NULL,
        pass TEXT NOT NULL,
        mode TEXT NOT NULL,
        fail_open INTEGER NOT NULL,
        priority REAL NOT NULL,
        timeout_ms REAL,
        skipped TEXT,
        skip_detail TEXT,
        -- Line numbers in execution_details.bodies.
        input INTEGER,
        -- The interceptor result without its payload (a mutation's payload is result_payload).
        result_json TEXT,
        result_payload INTEGER,
        error_json TEXT,
        start_ms REAL NOT NULL,
        duration_ms REAL NOT NULL,
        outcome TEXT NOT NULL,
        shadow INTEGER NOT NULL,
        simulated INTEGER,
        extra_json TEXT,
        PRIMARY KEY (execution_id, seq)
      ) WITHOUT ROWID;

      CREATE TABLE replays (
        execution_id INTEGER PRIMARY KEY REFERENCES executions (id) ON DELETE CASCADE,
        -- The original may have been pruned or live in another file: linked by its uuid, not a key.
        original_uuid TEXT NOT NULL,
        mode TEXT
      );
      CREATE INDEX replays_by_original ON replays (original_uuid);
    `);
  },
};
