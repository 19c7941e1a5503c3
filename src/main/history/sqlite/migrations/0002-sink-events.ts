// Version 2: sink events, one per sink step that ran, for the Sinks screen (its own table so that
// it pages by interceptor and time without walking every step).
//
// Sink steps recorded before this version get their events here too (else the Sinks screen would
// silently miss them): the same row the inserter writes (sql/encode.ts, `sink`), rebuilt from the
// version-1 steps. It reads those tables as they are at version 1, not through today's sql/ code.
import type Database from 'better-sqlite3';
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
    backfill(db);
  },
};

interface Version1SinkStep {
  execution_id: number;
  seq: number;
  gateway_id: number;
  interceptor_id: number;
  event: string;
  phase: string;
  outcome: string;
  result_json: string | null;
  error_json: string | null;
  start_ms: number;
  started_ms: number;
  trace_json: string | null;
}

const PAGE = 2000;

function backfill(db: Database.Database): void {
  const steps = db.prepare(`
    SELECT s.execution_id, s.seq, e.gateway_id, s.interceptor_id, e.event, s.phase, s.outcome, s.result_json, s.error_json,
      s.start_ms, e.started_ms,
      CASE s.phase WHEN 'request' THEN d.request_trace_json ELSE d.response_trace_json END AS trace_json
    FROM steps s JOIN executions e ON e.id = s.execution_id LEFT JOIN execution_details d ON d.execution_id = s.execution_id
    WHERE s.type = 'sink' AND (s.skipped IS NULL OR s.skipped = '') AND (s.execution_id, s.seq) > (?, ?)
    ORDER BY s.execution_id, s.seq LIMIT ${PAGE}`);
  const insert = db.prepare(`INSERT INTO sink_events (execution_id, seq, gateway_id, interceptor_id, event, phase, recorded, metrics_json, error_json, at_ms)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // Paged (a statement being iterated would keep the connection busy for the inserts).
  let after: [number, number] = [Number.MIN_SAFE_INTEGER, -1];
  for (;;) {
    const page = steps.all(...after) as Version1SinkStep[];
    for (const s of page) insertEvent(s);
    if (page.length < PAGE) return;
    const last = page[page.length - 1]!;
    after = [last.execution_id, last.seq];
  }

  function insertEvent(s: Version1SinkStep): void {
    const result = parseObject(s.result_json);
    const recorded = result.recorded === true || (result.recorded === undefined && s.outcome === 'recorded') ? 1 : 0;
    const metricsJson = result.metrics === undefined ? null : JSON.stringify(result.metrics);
    // A step's start is an offset from its phase trace's start (the response phase starts when the backend answered).
    const traceStart = Date.parse(String(parseObject(s.trace_json).startedAt ?? ''));
    const at = Math.round((Number.isFinite(traceStart) ? traceStart : s.started_ms) + s.start_ms);
    insert.run(s.execution_id, s.seq, s.gateway_id, s.interceptor_id, s.event, s.phase, recorded, metricsJson, s.error_json, at);
  }
}

function parseObject(json: string | null): Record<string, unknown> {
  if (json === null) return {};
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
