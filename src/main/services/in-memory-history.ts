// The history kept in memory, for a console whose store could not be opened (app.info says why) and for
// tests of the API alone: what the recorder received, no persistence, no search index. It answers the
// same HistoryStore calls as the engines, read from the recorder's arrays (what a small, short-lived
// history needs; nothing here is meant to scale).
import type { ExecutionOutcome, ExecutionRecord, SessionRecord } from '../../shared/trace/execution';
import { MemoryRecorder } from '../../shared/trace/execution';
import type { Facets } from '../../shared/api/models-traffic';
import type { MessagePage, PruneReport, RecordingHistory, RetentionOptions } from '../history/model/history-store';
import type { ExecutionDetail, ExecutionPage, ExecutionSummary, PageOptions } from '../history/model/executions';
import type { ExecutionFilter } from '../history/model/filters';
import type { AggregateWindow, GatewayCounters, RecordedGateway, TimeBucket } from '../history/model/aggregates';
import type { SinkEventPage } from '../history/model/sink-events';
import type { MessageDetail, MessageSessionSummary } from '../history/model/messages';
import type { ImportResult } from '../history/model/portability/parse-export-lines';
import { EXPORT_FORMAT, EXPORT_VERSION } from '../history/model/portability/line-schema';

export class InMemoryHistory implements RecordingHistory {
  readonly kind = 'memory' as const;
  readonly location = 'memory';
  readonly recorder = new MemoryRecorder();
  /** Kept in memory as it was received: redaction at rest is for what a store writes. */
  readonly redactor = undefined;

  /** `unavailableReason`: why no store is used (shown by app.info). */
  constructor(readonly unavailableReason?: string) {}

  setRedaction(): void {}

  async listExecutions(filter: ExecutionFilter = {}, page: PageOptions = {}): Promise<ExecutionPage> {
    const all = this.matching(filter).reverse();
    const start = page.cursor ? Number(page.cursor) : 0;
    const limit = page.limit ?? 100;
    const items = all.slice(start, start + limit).map(summary);
    return { items, nextCursor: start + limit < all.length ? String(start + limit) : null, ...(page.withTotal ? { total: all.length } : {}) };
  }

  async countExecutions(filter: ExecutionFilter = {}, options: { cap?: number } = {}): Promise<number> {
    const n = this.matching(filter).length;
    return options.cap !== undefined ? Math.min(n, options.cap) : n;
  }

  async countByOutcome(filter: ExecutionFilter = {}): Promise<Record<ExecutionOutcome, number>> {
    const counts: Record<ExecutionOutcome, number> = { allow: 0, blocked: 0, mutated: 0, error: 0 };
    for (const e of this.matching(filter)) counts[e.outcome]++;
    return counts;
  }

  async getExecution(id: string): Promise<ExecutionDetail | undefined> {
    const e = this.recorder.executions.find((x) => x.id === id);
    if (!e) return undefined;
    const replayedBy = this.recorder.executions.filter((x) => x.replayOf === id).map((x) => x.id);
    const session = e.sessionId !== undefined ? await this.getSession(e.gateway, e.sessionId) : undefined;
    return { ...e, sinkEvents: [], replayedBy, ...(session ? { session } : {}) };
  }

  async getExecutionRecord(id: string): Promise<ExecutionRecord | undefined> {
    const e = this.recorder.executions.find((x) => x.id === id);
    return e ? { ...e } : undefined;
  }

  async getSession(gateway: string, sessionId: string): Promise<SessionRecord | undefined> {
    return this.recorder.sessions.find((s) => s.gateway === gateway && s.id === sessionId);
  }

  async listGateways(): Promise<RecordedGateway[]> {
    const names = new Set(this.recorder.executions.map((e) => e.gateway));
    return [...names].sort().map((name) => ({ name, config: null, createdAt: '', updatedAt: '' }));
  }

  async listSinkEvents(): Promise<SinkEventPage> {
    return { items: [], nextCursor: null };
  }

  async gatewayCounters(window: AggregateWindow = {}): Promise<GatewayCounters[]> {
    const rows = this.inWindow(window);
    const gateways = [...new Set(rows.map((r) => r.gateway))];
    return gateways.map((gateway) => {
      const of = rows.filter((r) => r.gateway === gateway);
      return {
        gateway,
        calls: of.length,
        allowed: of.filter((r) => r.outcome === 'allow').length,
        blocked: of.filter((r) => r.outcome === 'blocked').length,
        mutated: of.filter((r) => r.outcome === 'mutated').length,
        errors: of.filter((r) => r.outcome === 'error').length,
        p50Ms: percentile(
          of.map((r) => r.durationMs),
          0.5,
        ),
        p95Ms: percentile(
          of.map((r) => r.durationMs),
          0.95,
        ),
        lastAt:
          of
            .map((r) => r.startedAt)
            .sort()
            .at(-1) ?? null,
      };
    });
  }

  /** Every bucket from `since` to `until`, empty ones included. */
  async timeBuckets(options: AggregateWindow & { since: string | number; until: string | number; bucketMs: number }): Promise<TimeBucket[]> {
    const rows = this.inWindow(options);
    const buckets: TimeBucket[] = [];
    for (let t = toMs(options.since); t < toMs(options.until); t += options.bucketMs) {
      const of = rows.filter((r) => Date.parse(r.startedAt) >= t && Date.parse(r.startedAt) < t + options.bucketMs);
      buckets.push({
        start: new Date(t).toISOString(),
        startMs: t,
        calls: of.length,
        blocked: of.filter((r) => r.outcome === 'blocked').length,
        mutated: of.filter((r) => r.outcome === 'mutated').length,
        errors: of.filter((r) => r.outcome === 'error').length,
        p50Ms: percentile(
          of.map((r) => r.durationMs),
          0.5,
        ),
      });
    }
    return buckets;
  }

  async facets(): Promise<Facets> {
    const rows = this.recorder.executions;
    const distinct = (values: (string | undefined)[]) => [...new Set(values.filter((v): v is string => v !== undefined))].sort();
    return {
      gateways: distinct(rows.map((r) => r.gateway)),
      hosts: [],
      events: distinct(rows.map((r) => r.event)),
      targets: distinct(rows.map((r) => r.target)),
      interceptors: [],
      sinks: [],
    };
  }

  async shadowIds(): Promise<string[]> {
    return [];
  }

  async toolErrorIds(): Promise<string[]> {
    return [];
  }

  // Messages are captured only by a store (the Messages view says the history is not in use).
  async listMessageSessions(): Promise<MessageSessionSummary[]> {
    return [];
  }
  async listMessages(): Promise<MessagePage> {
    return { items: [], nextCursor: null };
  }
  async getMessage(): Promise<MessageDetail | undefined> {
    return undefined;
  }
  async messageMethods(): Promise<string[]> {
    return [];
  }

  async countPrunable(options: RetentionOptions): Promise<number> {
    return this.recorder.executions.length - this.kept(options).length;
  }

  async prune(options: RetentionOptions): Promise<PruneReport> {
    const before = this.recorder.executions.length;
    const keep = this.kept(options);
    this.recorder.executions.splice(0, this.recorder.executions.length, ...keep);
    return { deleted: before - keep.length, messagesDeleted: 0 };
  }

  async *exportLines(filter?: ExecutionFilter): AsyncGenerator<string> {
    yield JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION });
    const rows = this.matching(filter ?? {});
    const sessions = new Set(rows.map((r) => `${r.gateway}\u0000${r.sessionId ?? ''}`));
    for (const session of this.recorder.sessions) {
      if (sessions.has(`${session.gateway}\u0000${session.id}`)) yield JSON.stringify({ type: 'session', session });
    }
    for (const execution of rows) yield JSON.stringify({ type: 'execution', execution });
  }

  /**
   * Reads an export's sessions and executions, or lines that are execution records themselves (what the
   * tests of the API alone write); one line that is not JSON stops it before anything is kept.
   */
  async importFromString(text: string): Promise<ImportResult> {
    const lines = text.split('\n').filter((l) => l.trim());
    const parsed = lines.map((l, i) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        throw new Error(`line ${i + 1} is not valid JSON; nothing was imported`);
      }
    });
    const result: ImportResult = { executions: 0, duplicates: 0, sessions: 0, gateways: 0 };
    for (const value of parsed) {
      if (value.format !== undefined || value.type === 'gateway') continue;
      if (value.type === 'session') {
        this.recorder.sessions.push(value.session as SessionRecord);
        result.sessions++;
      } else {
        this.recorder.executions.push((value.type === 'execution' ? value.execution : value) as ExecutionRecord);
        result.executions++;
      }
    }
    return result;
  }

  async importFromFile(): Promise<ImportResult> {
    throw new Error('history is kept in memory: there is no store to import a file into');
  }

  async close(): Promise<void> {}

  private matching(filter: ExecutionFilter): ExecutionRecord[] {
    return this.recorder.executions.filter((e) => matches(e, filter));
  }

  private inWindow(w: AggregateWindow): ExecutionRecord[] {
    const since = w.since !== undefined ? toMs(w.since) : -Infinity;
    const until = w.until !== undefined ? toMs(w.until) : Infinity;
    return this.recorder.executions.filter(
      (e) => (!w.gateway || e.gateway === w.gateway) && Date.parse(e.startedAt) >= since && Date.parse(e.startedAt) < until,
    );
  }

  private kept(options: RetentionOptions): ExecutionRecord[] {
    let keep = this.recorder.executions;
    if (options.maxAgeDays) keep = keep.filter((e) => Date.now() - Date.parse(e.startedAt) <= options.maxAgeDays! * 86_400_000);
    if (options.maxExecutions && keep.length > options.maxExecutions) keep = keep.slice(keep.length - options.maxExecutions);
    return keep;
  }
}

const toMs = (v: string | number) => (typeof v === 'number' ? v : Date.parse(v));
const oneOf = <T>(value: T, wanted: T | T[] | undefined) =>
  wanted === undefined || (Array.isArray(wanted) ? wanted.length === 0 || wanted.includes(value) : wanted === value);

function matches(e: ExecutionRecord, f: ExecutionFilter): boolean {
  return (
    oneOf(e.gateway, f.gateway) &&
    // Kept in this process's memory: no host is recorded, so a host filter matches nothing (as in SQLite).
    (f.host === undefined || (Array.isArray(f.host) && f.host.length === 0)) &&
    oneOf(e.event, f.event) &&
    (f.target === undefined || (e.target !== undefined && oneOf(e.target, f.target))) &&
    oneOf(e.outcome, f.outcome) &&
    (!f.blockedBy ||
      (e.blockedBy !== undefined && (f.blockedBy === e.blockedBy.interceptor || f.blockedBy === `${e.blockedBy.server}/${e.blockedBy.interceptor}`))) &&
    (f.sessionId === undefined || e.sessionId === f.sessionId) &&
    (f.since === undefined || Date.parse(e.startedAt) >= toMs(f.since)) &&
    (f.until === undefined || Date.parse(e.startedAt) < toMs(f.until)) &&
    (!f.search || JSON.stringify(e).includes(f.search))
  );
}

function summary(e: ExecutionRecord): ExecutionSummary {
  return {
    id: e.id,
    gateway: e.gateway,
    event: e.event,
    ...(e.target ? { target: e.target } : {}),
    ...(e.sessionId ? { sessionId: e.sessionId } : {}),
    startedAt: e.startedAt,
    durationMs: e.durationMs,
    outcome: e.outcome,
    ...(e.blockedBy ? { blockedBy: e.blockedBy } : {}),
    ...(e.simulated ? { simulated: true } : {}),
    ...(e.replayOf ? { replayOf: e.replayOf } : {}),
  };
}

function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  if (p === 0.5) {
    const mid = Math.floor(s.length / 2);
    return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  }
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
}
