// Rebuilds ExecutionRecords (with both chain traces) from their rows. The key order of the
// rebuilt objects is fixed, so an export of the same data is byte-for-byte the same.
import type Database from 'better-sqlite3';
import type { ExecutionOutcome, ExecutionRecord, SessionRecord } from '../../../../shared/trace/execution';
import type { BlockInfo, ChainTrace, TraceStep } from '../../../../shared/trace/types';
import { parseJsonText } from '../../model/encode/json-text';
import { LARGE_PAYLOAD_MARK } from './payload-size';

export interface ExecutionRow {
  id: number;
  uuid: string;
  gateway: string;
  session_key: string | null;
  jsonrpc_id: string | number | null;
  event: string;
  target: string | null;
  started_ms: number;
  started_at: string | null;
  duration_ms: number;
  outcome: ExecutionOutcome;
  bodies: string;
  request_received: number | null;
  request_forwarded: number | null;
  response_received: number | null;
  response_returned: number | null;
  error_json: string | null;
  blocked_json: string | null;
  request_trace_json: string | null;
  request_trace_input: number | null;
  request_trace_final: number | null;
  response_trace_json: string | null;
  response_trace_input: number | null;
  response_trace_final: number | null;
  simulated: number | null;
  replay_of: string | null;
  replay_mode: string | null;
  extra_json: string | null;
}

interface StepRow {
  seq: number;
  phase: string;
  server: string;
  name: string;
  type: string;
  pass: string;
  mode: string;
  fail_open: number;
  priority: number;
  timeout_ms: number | null;
  skipped: string | null;
  skip_detail: string | null;
  input: number | null;
  result_json: string | null;
  result_payload: number | null;
  error_json: string | null;
  start_ms: number;
  duration_ms: number;
  outcome: string;
  shadow: number;
  simulated: number | null;
  extra_json: string | null;
}

export const EXECUTION_COLUMNS = `e.id, e.uuid, g.name AS gateway, e.session_key, e.jsonrpc_id, e.event, e.target, e.started_ms, e.started_at,
  e.duration_ms, e.outcome, d.bodies, d.request_received, d.request_forwarded, d.response_received, d.response_returned,
  d.error_json, d.blocked_json, d.request_trace_json, d.request_trace_input, d.request_trace_final,
  d.response_trace_json, d.response_trace_input, d.response_trace_final, e.simulated,
  r.original_uuid AS replay_of, r.mode AS replay_mode, d.extra_json`;
// CROSS JOIN pins executions as the outer loop (SQLite never reorders it): given a tiny gateways
// table, the planner would otherwise loop over gateways and sort every execution for each page.
const JOINED = `CROSS JOIN execution_details d ON d.execution_id = e.id CROSS JOIN gateways g ON g.id = e.gateway_id
  LEFT JOIN replays r ON r.execution_id = e.id`;
export const EXECUTION_FROM = `executions e ${JOINED}`;
/** For walks in key order (export): NOT INDEXED keeps the planner on the primary key, never an index scan plus a sort. */
export const EXECUTION_FROM_BY_KEY = `executions e NOT INDEXED ${JOINED}`;

export function startedAtOf(row: { started_ms: number; started_at: string | null }): string {
  return row.started_at ?? new Date(row.started_ms).toISOString();
}

export class ExecutionReader {
  private readonly st;
  constructor(db: Database.Database) {
    this.st = {
      byUuid: db.prepare(`SELECT ${EXECUTION_COLUMNS} FROM ${EXECUTION_FROM} WHERE e.uuid = ?`),
      steps: db.prepare(
        `SELECT s.seq, s.phase, i.server, i.name, s.type, s.pass, s.mode, s.fail_open, s.priority, s.timeout_ms, s.skipped,
           s.skip_detail, s.input, s.result_json, s.result_payload, s.error_json, s.start_ms, s.duration_ms, s.outcome,
           s.shadow, s.simulated, s.extra_json
         FROM steps s JOIN interceptors i ON i.id = s.interceptor_id WHERE s.execution_id = ? ORDER BY s.seq`,
      ),
      payload: db.prepare('SELECT body FROM payloads WHERE id = ?').pluck(),
    };
  }

  rowByUuid(uuid: string): ExecutionRow | undefined {
    return this.st.byUuid.get(uuid) as ExecutionRow | undefined;
  }

  byUuid(uuid: string): ExecutionRecord | undefined {
    const row = this.rowByUuid(uuid);
    return row ? this.fromRow(row) : undefined;
  }

  fromRow(row: ExecutionRow): ExecutionRecord {
    const lines = row.bodies.split('\n');
    const payload = (line: number | null): unknown => {
      if (line === null) return undefined;
      let text = lines[line];
      if (text === undefined) throw new Error(`execution ${row.uuid} refers to payload line ${line}, which is missing`);
      if (text.startsWith(LARGE_PAYLOAD_MARK)) {
        const id = Number(text.slice(LARGE_PAYLOAD_MARK.length));
        text = this.st.payload.get(id) as string | undefined;
        if (text === undefined) throw new Error(`execution ${row.uuid} refers to large payload ${id}, which is missing`);
        lines[line] = text;
      }
      // Parsed per use: each field gets its own object, so editing one never changes another.
      return JSON.parse(text);
    };
    const steps = this.st.steps.all(row.id) as StepRow[];
    const rec: Record<string, unknown> = {
      id: row.uuid,
      gateway: row.gateway,
      sessionId: row.session_key ?? undefined,
      jsonrpcId: row.jsonrpc_id ?? undefined,
      event: row.event,
      target: row.target ?? undefined,
      startedAt: startedAtOf(row),
      durationMs: row.duration_ms,
      requestReceived: payload(row.request_received),
      requestForwarded: payload(row.request_forwarded),
      responseReceived: payload(row.response_received),
      responseReturned: payload(row.response_returned),
      errorReturned: parseJsonText(row.error_json),
      outcome: row.outcome,
      blockedBy: parseJsonText<BlockInfo>(row.blocked_json),
      requestTrace: this.trace(row.request_trace_json, row.request_trace_input, row.request_trace_final, 'request', steps, payload),
      responseTrace: this.trace(row.response_trace_json, row.response_trace_input, row.response_trace_final, 'response', steps, payload),
      simulated: row.simulated === null ? undefined : row.simulated === 1,
      replayOf: row.replay_of ?? undefined,
      replayMode: row.replay_mode ?? undefined,
    };
    if (row.extra_json) Object.assign(rec, JSON.parse(row.extra_json));
    return dropUndefined(rec) as unknown as ExecutionRecord;
  }

  private trace(
    json: string | null,
    inputId: number | null,
    finalId: number | null,
    phase: string,
    steps: StepRow[],
    payload: (id: number | null) => unknown,
  ): ChainTrace | undefined {
    if (json === null) return undefined;
    const header = JSON.parse(json) as Record<string, unknown>;
    const trace: Record<string, unknown> = {
      ...header,
      inputPayload: payload(inputId),
      finalPayload: payload(finalId),
      steps: steps.filter((s) => s.phase === phase).map((s) => this.step(s, payload)),
    };
    return dropUndefined(trace) as unknown as ChainTrace;
  }

  private step(s: StepRow, payload: (id: number | null) => unknown): TraceStep {
    let result: Record<string, unknown> | undefined = parseJsonText(s.result_json);
    if (s.result_payload !== null) result = { ...(result ?? {}), payload: payload(s.result_payload) };
    const step: Record<string, unknown> = {
      id: `${s.server}/${s.name}`,
      server: s.server,
      name: s.name,
      type: s.type,
      pass: s.pass,
      mode: s.mode,
      failOpen: s.fail_open === 1,
      priority: s.priority,
      timeoutMs: s.timeout_ms ?? undefined,
      skipped: s.skipped ?? undefined,
      skipDetail: s.skip_detail ?? undefined,
      input: payload(s.input),
      result,
      error: parseJsonText(s.error_json),
      startMs: s.start_ms,
      durationMs: s.duration_ms,
      outcome: s.outcome,
      shadow: s.shadow === 1,
      simulated: s.simulated === null ? undefined : s.simulated === 1,
    };
    if (s.extra_json) Object.assign(step, JSON.parse(s.extra_json));
    return dropUndefined(step) as unknown as TraceStep;
  }
}

function dropUndefined(obj: Record<string, unknown>): Record<string, unknown> {
  for (const k of Object.keys(obj)) if (obj[k] === undefined) delete obj[k];
  return obj;
}

interface SessionRow {
  session_key: string;
  gateway: string;
  started_at: string;
  client_info_json: string | null;
  principal_json: string | null;
  protocol_version: string | null;
  transport: string | null;
  extra_json: string | null;
}

export const SESSION_SELECT = `SELECT s.session_key, g.name AS gateway, s.started_at, s.client_info_json, s.principal_json,
  s.protocol_version, s.transport, s.extra_json FROM sessions s JOIN gateways g ON g.id = s.gateway_id`;

export function sessionFromRow(row: SessionRow): SessionRecord {
  const rec: Record<string, unknown> = {
    id: row.session_key,
    gateway: row.gateway,
    startedAt: row.started_at,
    clientInfo: parseJsonText(row.client_info_json),
    principal: parseJsonText(row.principal_json),
    protocolVersion: row.protocol_version ?? undefined,
    transport: row.transport ?? undefined,
  };
  if (row.extra_json) Object.assign(rec, JSON.parse(row.extra_json));
  return dropUndefined(rec) as unknown as SessionRecord;
}
