// Writes encoded items with statements prepared once per connection. Callers own the transaction
// (the recorder: one per flush; import: one for the whole file), call beginBatch() first inside it
// and endBatch() last.
import type Database from 'better-sqlite3';
import type { EncodedExecution, EncodedGateway, EncodedItem, EncodedSession } from '../../model/encode/encoded';
import { insertUnderSlotKey } from './execution-ids';
import { sha256 } from '../../model/encode/json-text';
import { searchText } from '../../model/encode/search-text';
import { LARGE_PAYLOAD_CHARS, LARGE_PAYLOAD_MARK } from './payload-size';
import { MessageInserter } from './message-inserter';

/** Large-payload ids remembered across batches; bounded so a long-running gateway does not grow. */
const PAYLOAD_CACHE_LIMIT = 2_000;

const STEPS_PER_STATEMENT = 8;

/** Search rows written together at most this many at a time (bounds memory in a long import). */
const SEARCH_FLUSH_ROWS = 2000;

export type WriteResult = 'written' | 'duplicate';

export class ExecutionInserter {
  private readonly gatewayIds = new Map<string, number>();
  private readonly interceptorIds = new Map<string, number>();
  private payloadIds = new Map<string, number>();
  private payloadGeneration: string | undefined;
  /** The last execution key this inserter used: the next one in the same millisecond follows it. */
  private lastKey: number | undefined;
  /**
   * Search-index rows wait here and are written together: FTS5 flushes its in-memory index at
   * every statement savepoint, and each execution insert opens one, so interleaving them would
   * write one index segment per execution (ten times slower).
   */
  private pendingSearch: { id: number; text: string }[] = [];
  private readonly st;
  /** Captured messages (the Messages view), prepared on the first one. */
  private messages: MessageInserter | undefined;
  /** INSERT INTO steps statements by number of rows, prepared on first use. */
  private readonly stepStatements: Database.Statement[] = [];

  constructor(private readonly db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.st = {
      generation: p(`SELECT value FROM meta WHERE key = 'payload_generation'`).pluck(),
      gatewayId: p('SELECT id FROM gateways WHERE name = ?').pluck(),
      gatewayInsert: p('INSERT INTO gateways (name, config_json, created_at, updated_at) VALUES (?, NULL, ?, ?) ON CONFLICT (name) DO NOTHING'),
      gatewayConfig: p(
        `INSERT INTO gateways (name, config_json, created_at, updated_at) VALUES (@name, @config, @createdAt, @at)
         ON CONFLICT (name) DO UPDATE SET config_json = excluded.config_json, updated_at = excluded.updated_at`,
      ),
      interceptorId: p('SELECT id FROM interceptors WHERE server = ? AND name = ?').pluck(),
      interceptorInsert: p('INSERT INTO interceptors (server, name) VALUES (?, ?) RETURNING id').pluck(),
      payloadId: p('SELECT id FROM payloads WHERE hash = ?').pluck(),
      payloadInsert: p('INSERT INTO payloads (hash, size, body) VALUES (?, ?, ?) RETURNING id').pluck(),
      session: p(
        `INSERT INTO sessions (gateway_id, session_key, started_at, client_info_json, principal_json, protocol_version, transport, extra_json)
         VALUES (@gatewayId, @key, @startedAt, @clientInfoJson, @principalJson, @protocolVersion, @transport, @extraJson)
         ON CONFLICT (gateway_id, session_key) DO UPDATE SET started_at = excluded.started_at,
           client_info_json = excluded.client_info_json, principal_json = excluded.principal_json,
           protocol_version = excluded.protocol_version, transport = excluded.transport, extra_json = excluded.extra_json`,
      ),
      // A plain single-row VALUES insert: with a sub-select SQLite treats the statement as a
      // multi-row write (statement journal, scans of all five child tables), twice the cost.
      execution: p(
        `INSERT INTO executions (id, uuid, gateway_id, session_key, jsonrpc_id, event, target, started_ms, started_at, duration_ms, outcome,
           error_code, blocked_interceptor_id, blocked_phase, simulated)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (uuid) DO NOTHING`,
      ),
      lastInSlot: p('SELECT max(id) FROM executions WHERE id >= ? AND id < ?').pluck(),
      details: p(
        `INSERT INTO execution_details (execution_id, bodies, request_received, request_forwarded, response_received, response_returned,
           error_json, blocked_json, request_trace_json, request_trace_input, request_trace_final,
           response_trace_json, response_trace_input, response_trace_final, extra_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      payloadLink: p('INSERT OR IGNORE INTO execution_payloads (execution_id, payload_id) VALUES (?, ?)'),
      sinkEvent: p(
        `INSERT INTO sink_events (execution_id, seq, gateway_id, interceptor_id, event, phase, recorded, metrics_json, error_json, at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      replay: p('INSERT INTO replays (execution_id, original_uuid, mode) VALUES (?, ?, ?)'),
      search: p('INSERT INTO executions_fts (rowid, body) VALUES (?, ?)'),
    };
  }

  private stepStatement(rows: number): Database.Statement {
    let st = this.stepStatements[rows];
    if (!st) {
      const one = `(${Array.from({ length: 22 }, () => '?').join(', ')})`;
      st = this.db.prepare(
        `INSERT INTO steps (execution_id, seq, phase, interceptor_id, type, pass, mode, fail_open, priority, timeout_ms, skipped, skip_detail,
           input, result_json, result_payload, error_json, start_ms, duration_ms, outcome, shadow, simulated, extra_json)
         VALUES ${Array.from({ length: rows }, () => one).join(', ')}`,
      );
      this.stepStatements[rows] = st;
    }
    return st;
  }

  /**
   * Call at the start of every write transaction: retention (maybe in another process) bumps the
   * payload generation when it deletes payloads, and cached payload ids are then forgotten.
   */
  beginBatch(): void {
    const generation = this.st.generation.get() as string | undefined;
    if (generation !== this.payloadGeneration) {
      this.payloadIds = new Map();
      this.payloadGeneration = generation;
    }
  }

  /** Call before committing: writes the queued search-index rows. */
  endBatch(): void {
    const rows = this.pendingSearch;
    this.pendingSearch = [];
    for (const row of rows) this.st.search.run(row.id, row.text);
  }

  /** Forget every cached id (after a rolled-back transaction, ids inserted by it do not exist). */
  resetCaches(): void {
    this.pendingSearch = [];
    this.gatewayIds.clear();
    this.interceptorIds.clear();
    this.payloadIds = new Map();
    this.payloadGeneration = undefined;
    this.lastKey = undefined;
    this.messages?.resetCaches();
  }

  write(item: EncodedItem): WriteResult {
    if (item.kind === 'execution') return this.writeExecution(item);
    if (item.kind === 'message') {
      this.messages ??= new MessageInserter(this.db, (name, at) => this.gatewayId(name, at));
      return this.messages.write(item) ? 'written' : 'duplicate';
    }
    if (item.kind === 'session') this.writeSession(item);
    else this.writeGateway(item);
    return 'written';
  }

  writeGateway(item: EncodedGateway): void {
    this.st.gatewayConfig.run({ name: item.name, config: item.configJson, at: item.at, createdAt: item.createdAt ?? item.at });
  }

  writeSession(item: EncodedSession): void {
    this.st.session.run({
      gatewayId: this.gatewayId(item.gateway, item.startedAt),
      key: item.key,
      startedAt: item.startedAt,
      clientInfoJson: item.clientInfoJson,
      principalJson: item.principalJson,
      protocolVersion: item.protocolVersion,
      transport: item.transport,
      extraJson: item.extraJson,
    });
  }

  writeExecution(e: EncodedExecution): WriteResult {
    const gatewayId = this.gatewayId(e.gateway, e.startedMs);
    const id = this.insertExecutionRow(e, [
      e.uuid,
      gatewayId,
      e.sessionKey,
      e.jsonrpcId,
      e.event,
      e.target,
      e.startedMs,
      e.startedAtText,
      e.durationMs,
      e.outcome,
      e.errorCode,
      e.blocked ? this.interceptorId(e.blocked.server, e.blocked.interceptor) : null,
      e.blocked?.phase ?? null,
      e.simulated,
    ]);
    if (id === undefined) return 'duplicate';

    // Short payloads inline, one line each; long ones once in payloads, by content hash.
    let bodies = '';
    e.payloads.forEach((text, i) => {
      if (i > 0) bodies += '\n';
      if (text.length < LARGE_PAYLOAD_CHARS) {
        bodies += text;
      } else {
        const payloadId = this.largePayloadId(text);
        this.st.payloadLink.run(id, payloadId);
        bodies += `${LARGE_PAYLOAD_MARK}${payloadId}`;
      }
    });
    this.st.details.run(
      id,
      bodies,
      e.requestReceived,
      e.requestForwarded,
      e.responseReceived,
      e.responseReturned,
      e.errorJson,
      e.blocked?.json ?? null,
      e.requestTrace?.json ?? null,
      e.requestTrace?.input ?? null,
      e.requestTrace?.final ?? null,
      e.responseTrace?.json ?? null,
      e.responseTrace?.input ?? null,
      e.responseTrace?.final ?? null,
      e.extraJson,
    );
    // All steps of the execution in one statement (up to STEPS_PER_STATEMENT rows): the statement
    // overhead, not the rows, is most of what a step costs.
    for (let from = 0; from < e.steps.length; from += STEPS_PER_STATEMENT) {
      const chunk = e.steps.slice(from, from + STEPS_PER_STATEMENT);
      const values: unknown[] = [];
      chunk.forEach((s, i) => {
        values.push(
          id,
          from + i,
          s.phase,
          this.interceptorId(s.server, s.name),
          s.type,
          s.pass,
          s.mode,
          s.failOpen,
          s.priority,
          s.timeoutMs,
          s.skipped,
          s.skipDetail,
          s.input,
          s.resultJson,
          s.resultPayload,
          s.errorJson,
          s.startMs,
          s.durationMs,
          s.outcome,
          s.shadow,
          s.simulated,
          s.extraJson,
        );
      });
      this.stepStatement(chunk.length).run(...values);
    }
    e.steps.forEach((s, seq) => {
      if (s.sink) {
        const interceptorId = this.interceptorId(s.server, s.name);
        const at = s.sink.atMs ?? Math.round(e.startedMs + s.startMs);
        this.st.sinkEvent.run(id, seq, gatewayId, interceptorId, e.event, s.phase, s.sink.recorded, s.sink.metricsJson, s.errorJson, at);
      }
    });
    if (e.replayOf !== null) this.st.replay.run(id, e.replayOf, e.replayMode);
    const text = searchText(e);
    if (text.length > 0) {
      this.pendingSearch.push({ id, text });
      if (this.pendingSearch.length >= SEARCH_FLUSH_ROWS) this.endBatch();
    }
    return 'written';
  }

  /**
   * Inserts the execution row under the next free key of its millisecond slot (a full slot moves on
   * to the next one). The key is guessed from this process's last insert and corrected when another
   * process took it first. Undefined: an execution with this uuid is already stored.
   */
  private insertExecutionRow(e: EncodedExecution, values: unknown[]): number | undefined {
    const key = insertUnderSlotKey(
      e.startedMs,
      this.lastKey,
      (k) => this.st.execution.run(k, ...values).changes,
      (from, to) => this.st.lastInSlot.get(from, to) as number | null,
    );
    if (key !== undefined) this.lastKey = key;
    return key;
  }

  private gatewayId(name: string, at: string | number): number {
    let id = this.gatewayIds.get(name);
    if (id === undefined) {
      const text = typeof at === 'number' ? new Date(at).toISOString() : at;
      this.st.gatewayInsert.run(name, text, text);
      id = this.st.gatewayId.get(name) as number;
      this.gatewayIds.set(name, id);
    }
    return id;
  }

  private interceptorId(server: string, name: string): number {
    const key = `${server}\u0000${name}`;
    let id = this.interceptorIds.get(key);
    if (id === undefined) {
      id = (this.st.interceptorId.get(server, name) as number | undefined) ?? (this.st.interceptorInsert.get(server, name) as number);
      this.interceptorIds.set(key, id);
    }
    return id;
  }

  private largePayloadId(text: string): number {
    const hash = sha256(text);
    const key = hash.toString('base64');
    let id = this.payloadIds.get(key);
    if (id === undefined) {
      id = (this.st.payloadId.get(hash) as number | undefined) ?? (this.st.payloadInsert.get(hash, Buffer.byteLength(text), text) as number);
      if (this.payloadIds.size >= PAYLOAD_CACHE_LIMIT) this.payloadIds = new Map();
      this.payloadIds.set(key, id);
    }
    return id;
  }
}
