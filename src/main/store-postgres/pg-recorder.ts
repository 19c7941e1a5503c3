// The Recorder for a PostgreSQL history. Like the SQLite one (store/writer/sqlite-recorder.ts):
// recordExecution() only encodes the record and queues it, never throws and never waits; a timer sends
// the queue in batches (one transaction each, batch-insert.ts). When PostgreSQL is unreachable (a
// restart, a failover, a network cut) the batch stays at the head of the queue and is retried with
// exponential backoff: nothing is lost while the queue is within its bound, and the insert is
// idempotent, so a retry of a batch that did commit before the connection dropped duplicates nothing.
// Beyond the bound (maxQueued), new records are counted as lost and said in stats().lastError.
// With a journal (a local path, as the SQLite recorder's: store/writer/journal.ts), every accepted record is
// on local disk within an interval until PostgreSQL has it: a gateway killed with SIGKILL, or stopped while the
// server is unreachable, loses nothing; the next recorder started with the same journal path writes it.
import { readFileSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type pg from 'pg';
import type { ExecutionRecord, Recorder, RecorderStats, SessionRecord } from '../../shared/trace/execution';
import type { MessageRecord } from '../../shared/trace/messages';
import { encodeExecution, encodeGateway, encodeSession } from '../store/sql/encode';
import { encodeMessage } from '../store/sql/encode-message';
import type { Redactor } from '../store/redaction/redactor';
import { backoffDelay, describeError } from '../store/writer/retry-policy';
import { DEFAULT_JOURNAL_INTERVAL_MS, Journal } from '../store/writer/journal';
import { adoptOrphanSpills, releaseSpillPath } from '../store/writer/spill-adoption';
import { IdCache, writeBatch, type PgItem } from './batch-insert';
import { describePgError } from './connection';

export interface PgRecorderOptions {
  redactor?: Pick<Redactor, 'execution' | 'message'>;
  /** Records sent per transaction. Default 500. */
  batchSize?: number;
  /** How long a record may wait for companions before its batch is sent. Default 50 ms. */
  flushIntervalMs?: number;
  /** Records held in memory while PostgreSQL is unreachable; beyond that new ones are lost (counted). Default 200,000. */
  maxQueued?: number;
  /** The host name recorded with the gateway rows. Default os.hostname(). */
  host?: string;
  onError?: (message: string) => void;
  /** For messages: the connection string (its password is never shown). */
  url?: string;
  /**
   * Crash safety: a local path prefix for the journal (`<path>.journal-<pid>-*.jsonl`). Journals left by
   * processes that are gone are adopted and written first.
   */
  journal?: { path: string; intervalMs?: number };
}

export interface PgRecorderStats extends RecorderStats {
  retries: number;
  duplicates: number;
  lost: number;
  /** PostgreSQL is unreachable right now (the queue is being retried). */
  disconnected: boolean;
}

/** Connection-level and server-capacity errors: the same batch is written again later. */
export function isPgTransient(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return true; // no SQLSTATE: the connection failed (reset, timeout, refused)
  if (/^E[A-Z]+$/.test(code)) return true;
  return /^(08|53|57P|40|58|55P03|57014)/.test(code);
}

export class PgRecorder implements Recorder {
  private readonly queue: PgItem[] = [];
  private readonly cache = new IdCache();
  private readonly host: string;
  private timer: NodeJS.Timeout | undefined;
  private writing = false;
  private failures = 0;
  private closed = false;
  private accepted = 0;
  private settled = 0;
  private waiters: { target: number; resolve: () => void }[] = [];
  private readonly counters = { written: 0, failed: 0, retries: 0, duplicates: 0, lost: 0 };
  private lastError: string | undefined;
  private disconnected = false;
  private readonly journal: Journal | undefined;
  /** Journals of dead processes, adopted: deleted once everything read from them is settled. */
  private adopted: { path: string; target: number }[] = [];

  constructor(
    readonly pool: pg.Pool,
    private readonly options: PgRecorderOptions = {},
  ) {
    this.host = options.host ?? hostname();
    if (options.journal) {
      this.journal = new Journal(options.journal.path, options.journal.intervalMs ?? DEFAULT_JOURNAL_INTERVAL_MS, (m) => this.fail(m));
      this.adoptJournals(options.journal.path);
    }
  }

  /** Queues what journals (and spills) of dead processes hold: idempotent inserts make a replay safe. */
  private adoptJournals(base: string): void {
    for (const path of adoptOrphanSpills(base)) {
      let n = 0;
      try {
        for (const line of readFileSync(path, 'utf8').split('\n')) {
          if (line.trim() === '') continue;
          try {
            this.queue.push(JSON.parse(line) as PgItem);
            this.accepted++;
            n++;
          } catch {
            // a line cut by the kill: the record was not confirmed before it
          }
        }
      } catch (err) {
        this.fail(`cannot read the journal ${path}: ${describeError(err)}`);
        continue;
      }
      this.adopted.push({ path, target: this.accepted });
      if (n > 0) this.options.onError?.(`replaying ${n} records from ${path}, left by a process that stopped before PostgreSQL had them`);
    }
    if (this.queue.length > 0) this.schedule(0);
  }

  recordGateway(name: string, config: unknown): void {
    this.accept(() => encodeGateway(name, config, new Date().toISOString()));
  }

  recordSession(session: SessionRecord): void {
    this.accept(() => ({ ...encodeSession(session), json: JSON.stringify(session) }));
  }

  recordExecution(execution: ExecutionRecord): void {
    this.accept(() => {
      const record = this.options.redactor ? this.options.redactor.execution(execution) : execution;
      return { ...encodeExecution(record), json: JSON.stringify(record) };
    });
  }

  /** A captured JSON-RPC message (the Messages view): redacted, cut at 64 Ki characters, and sent in the same batches. */
  recordMessage(message: MessageRecord): void {
    const redactor = this.options.redactor;
    this.accept(() => encodeMessage(redactor?.message ? redactor.message(message) : message));
  }

  /** Adopted journals whose records are all settled are no longer needed. */
  private releaseAdopted(): void {
    this.adopted = this.adopted.filter((a) => {
      if (this.settled < a.target) return true;
      try {
        unlinkSync(a.path);
      } catch {
        // gone already
      }
      releaseSpillPath(a.path);
      return false;
    });
  }

  stats(): PgRecorderStats {
    return { queued: this.queue.length, ...this.counters, ...(this.lastError ? { lastError: this.lastError } : {}), disconnected: this.disconnected };
  }

  /** Resolves when everything accepted so far is stored (or counted as failed). */
  flush(): Promise<void> {
    if (this.settled >= this.accepted) return Promise.resolve();
    const target = this.accepted;
    this.schedule(0);
    return new Promise((resolve) => this.waiters.push({ target, resolve }));
  }

  /**
   * Writes what is queued, retrying for up to `timeoutMs` if PostgreSQL is unreachable, then ends the
   * pool. What could not be written by then is counted as lost and said.
   */
  async close(timeoutMs = 15_000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const flushed = this.flush();
    let timer: NodeJS.Timeout | undefined;
    const expired = await Promise.race([flushed.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), timeoutMs)))]);
    clearTimeout(timer);
    if (expired && this.queue.length > 0) {
      const n = this.queue.filter((i) => i.kind === 'execution').length;
      if (this.journal) {
        // Kept on disk: the next recorder started with this journal path writes them.
        this.journal.write();
        this.fail(`closing with ${n} executions not yet in PostgreSQL (${this.lastError ?? 'unreachable'}): kept in ${this.journal.path} for the next start`);
      } else {
        this.counters.lost += n;
        this.fail(`closing with ${n} executions not written to PostgreSQL (${this.lastError ?? 'unreachable'})`);
      }
      this.settle(this.queue.splice(0).length);
    } else this.journal?.close(); // everything is in PostgreSQL
    if (this.timer) clearTimeout(this.timer);
    await this.pool.end().catch(() => {});
  }

  private accept(encode: () => PgItem): void {
    let item: PgItem;
    try {
      item = encode();
    } catch (err) {
      this.counters.failed++;
      this.fail(`record refused: ${describeError(err)}`);
      return;
    }
    if (this.queue.length >= (this.options.maxQueued ?? 200_000)) {
      this.counters.lost++;
      this.counters.failed++;
      this.fail(`the recording queue is full (${this.queue.length} records waiting for PostgreSQL): this record was dropped`);
      return;
    }
    this.accepted++;
    this.queue.push(item);
    this.journal?.add(item);
    this.schedule(this.queue.length >= (this.options.batchSize ?? 500) ? 0 : (this.options.flushIntervalMs ?? 50));
  }

  private schedule(delayMs: number): void {
    if (this.writing) return;
    if (this.timer) {
      if (delayMs > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.drain();
    }, delayMs);
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.slice(0, this.options.batchSize ?? 500);
        try {
          const r = await writeBatch(this.pool, batch, this.host, this.cache);
          this.done(batch, r.inserted, r.duplicates);
          if (this.disconnected) this.options.onError?.(`PostgreSQL reachable again; ${this.queue.length} records still queued`);
          this.disconnected = false;
          this.failures = 0;
        } catch (err) {
          if (isPgTransient(err)) {
            this.failures++;
            this.counters.retries++;
            this.disconnected = true;
            this.fail(`${describePgError(err, this.options.url ?? '')}; retrying, ${this.queue.length} records queued`);
            this.writing = false;
            this.schedule(backoffDelay(this.failures, { baseMs: 100, maxMs: 5000 }));
            return;
          }
          await this.writeOneByOne(batch);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  /** A batch PostgreSQL refused for its content: each record alone, so one bad record costs only itself. */
  private async writeOneByOne(batch: PgItem[]): Promise<void> {
    for (const item of batch) {
      try {
        const r = await writeBatch(this.pool, [item], this.host, this.cache);
        this.done([item], r.inserted, r.duplicates);
      } catch (err) {
        if (isPgTransient(err)) return; // the rest stays queued; the drain loop retries it
        this.counters.failed++;
        this.fail(`PostgreSQL refused a record: ${describeError(err)}`);
        this.done([item], 0, 0);
      }
    }
  }

  private done(items: PgItem[], inserted: number, duplicates: number): void {
    // The items written are always the head of the queue (batches and single retries are taken from it).
    this.queue.splice(0, items.length);
    this.journal?.committed(items);
    this.counters.written += inserted;
    this.counters.duplicates += duplicates;
    this.settle(items.length);
  }

  private settle(n: number): void {
    this.settled += n;
    if (this.adopted.length > 0) this.releaseAdopted();
    this.waiters = this.waiters.filter((w) => {
      if (this.settled < w.target) return true;
      w.resolve();
      return false;
    });
  }

  private fail(message: string): void {
    this.lastError = message;
    this.options.onError?.(message);
  }
}
