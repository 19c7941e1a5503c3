// The history kept in memory, for a console whose SQLite file could not be opened (app.info says why)
// and for tests of the API alone: what the recorder received, no persistence, no search index.
import type { ExecutionRecord } from '../../shared/trace/execution';
import { MemoryRecorder } from '../../shared/trace/execution';
import type { ExecutionSummary, GatewayCounters, HistoryFilter, LatencyBucket } from '../../shared/api/models';
import type { HistoryPort } from './history-port';

/** In-memory stand-in: keeps what a MemoryRecorder received; no persistence, no search index. */
export class InMemoryHistory implements HistoryPort {
  readonly kind = 'memory';
  readonly recorder = new MemoryRecorder();

  /** `unavailableReason`: why the SQLite store is not used (shown by app.info). */
  constructor(readonly unavailableReason?: string) {}

  stats(gateway: string, since: Date, bucketMs: number) {
    const rows = this.recorder.executions.filter((e) => e.gateway === gateway && Date.parse(e.startedAt) >= since.getTime());
    const counters: GatewayCounters = {
      calls: rows.length,
      blocked: rows.filter((r) => r.outcome === 'blocked').length,
      mutated: rows.filter((r) => r.outcome === 'mutated').length,
      errors: rows.filter((r) => r.outcome === 'error').length,
      p50Ms: median(rows.map((r) => r.durationMs)),
    };
    const buckets: LatencyBucket[] = [];
    for (let t = since.getTime(); t < Date.now(); t += bucketMs) {
      const inBucket = rows.filter((r) => Date.parse(r.startedAt) >= t && Date.parse(r.startedAt) < t + bucketMs);
      buckets.push({ start: new Date(t).toISOString(), calls: inBucket.length, p50Ms: median(inBucket.map((r) => r.durationMs)) });
    }
    return { counters, buckets };
  }

  query(filter: HistoryFilter, cursor: string | undefined, limit: number) {
    const all = this.recorder.executions.filter((e) => matches(e, filter)).reverse();
    const start = cursor ? Number(cursor) : 0;
    const items = all.slice(start, start + limit).map(summary);
    return { items, nextCursor: start + limit < all.length ? String(start + limit) : null, total: all.length };
  }

  detail(id: string) {
    const e = this.recorder.executions.find((x) => x.id === id);
    return e ? { ...e } : undefined;
  }

  exportJsonl(filter: HistoryFilter) {
    const rows = this.recorder.executions.filter((e) => matches(e, filter));
    return { jsonl: rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''), count: rows.length };
  }

  importJsonl(text: string): number {
    const lines = text.split('\n').filter((l) => l.trim());
    const parsed = lines.map((l, i) => {
      try {
        return JSON.parse(l) as ExecutionRecord;
      } catch {
        throw new Error(`line ${i + 1} is not valid JSON; nothing was imported`);
      }
    });
    this.recorder.executions.push(...parsed);
    return parsed.length;
  }

  prune(options: { maxExecutions?: number; maxAgeDays?: number }): number {
    const before = this.recorder.executions.length;
    const keep = this.kept(options);
    this.recorder.executions.splice(0, this.recorder.executions.length, ...keep);
    return before - keep.length;
  }

  countPrunable(options: { maxExecutions?: number; maxAgeDays?: number }): { wouldDelete: number; total: number } {
    const total = this.recorder.executions.length;
    return { wouldDelete: total - this.kept(options).length, total };
  }

  private kept(options: { maxExecutions?: number; maxAgeDays?: number }) {
    let keep = this.recorder.executions;
    if (options.maxAgeDays) keep = keep.filter((e) => Date.now() - Date.parse(e.startedAt) <= options.maxAgeDays! * 86_400_000);
    if (options.maxExecutions && keep.length > options.maxExecutions) keep = keep.slice(keep.length - options.maxExecutions);
    return keep;
  }

  sinkEvents(): Record<string, unknown>[] {
    return [];
  }

  async close(): Promise<void> {}
}

function matches(e: ExecutionRecord, f: HistoryFilter): boolean {
  return (
    (!f.gateway || e.gateway === f.gateway) &&
    // Kept in this process's memory: no host is recorded, so a host filter matches nothing (as in SQLite).
    !f.host &&
    (!f.event || e.event === f.event) &&
    (!f.target || e.target === f.target) &&
    (!f.outcome || e.outcome === f.outcome) &&
    (!f.since || e.startedAt >= f.since) &&
    (!f.until || e.startedAt <= f.until) &&
    (!f.search || JSON.stringify(e).includes(f.search))
  );
}

function summary(e: ExecutionRecord): ExecutionSummary {
  return {
    id: e.id,
    gateway: e.gateway,
    event: e.event,
    ...(e.target ? { target: e.target } : {}),
    startedAt: e.startedAt,
    durationMs: e.durationMs,
    outcome: e.outcome,
    ...(e.blockedBy ? { blockedBy: e.blockedBy } : {}),
  };
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
