// Version 2: sink events, one per sink step that ran, for the Sinks screen (its own table so that
// it pages by interceptor and time without walking every step).
import type { Migration } from './types';

export const migration0002: Migration = {
  version: 2,
  name: 'sink-events',
  up(db) {
    db.exec(`
      CREATE TABLE sink_events (
        execution_id INTEGER NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        gateway_id INTEGER NOT NULL REFERENCES gateways (id),
        interceptor_id INTEGER NOT NULL REFERENCES interceptors (id),
        event TEXT NOT NULL,
        phase TEXT NOT NULL,
        recorded INTEGER NOT NULL,
        metrics_json TEXT,
        error_json TEXT,
        -- execution start + step start offset
        at_ms INTEGER NOT NULL,
        PRIMARY KEY (execution_id, seq)
      ) WITHOUT ROWID;
      CREATE INDEX sink_events_by_interceptor ON sink_events (interceptor_id, execution_id);
      CREATE INDEX sink_events_not_recorded ON sink_events (execution_id) WHERE recorded = 0;
    `);
  },
};
