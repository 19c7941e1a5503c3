// Version 4: every JSON-RPC message a gateway saw and sent, on each side (client, backend, interceptor
// servers), for the Messages view. The key is time-ordered like the executions' (sql/execution-ids.ts:
// at_ms * 1024 + n), so "newest first" is a walk down the primary key, keyset cursors are keys, and
// retention deletes `id < cutoff` with the very cutoff it computes for executions.
//
// Indexes serve the view's queries: a session's messages (gateway, session, key), a method across a
// gateway (gateway, method, key), and the messages of one execution (the Traffic link). Each ends with
// the key, so a filtered page is read in order without sorting.
import { checkOneOf } from './check-constraints';
import type { Migration } from './types';

export const migration0004: Migration = {
  version: 4,
  name: 'messages',
  up(db) {
    db.exec(`
      CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        uuid TEXT NOT NULL UNIQUE,
        gateway_id INTEGER NOT NULL REFERENCES gateways (id),
        -- NULL: the gateway's own traffic outside any client session (interceptor discovery, connects).
        session_key TEXT,
        at_ms INTEGER NOT NULL,
        side TEXT NOT NULL ${checkOneOf('messages', 'side')},
        direction TEXT NOT NULL ${checkOneOf('messages', 'direction')},
        peer TEXT,
        kind TEXT NOT NULL ${checkOneOf('messages', 'kind')},
        method TEXT,
        jsonrpc_id, -- no declared type: a number stays a number, a string a string
        -- Bytes of the whole message as JSON; body holds at most 64 Ki characters of it (truncated = 1).
        size INTEGER NOT NULL,
        execution_uuid TEXT,
        truncated INTEGER NOT NULL DEFAULT 0,
        body TEXT NOT NULL
      );
      CREATE INDEX messages_by_session ON messages (gateway_id, session_key);
      CREATE INDEX messages_by_method ON messages (gateway_id, method);
      CREATE INDEX messages_by_execution ON messages (execution_uuid) WHERE execution_uuid IS NOT NULL;
    `);
  },
};
