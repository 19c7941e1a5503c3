// The Recorder for a PostgreSQL history. Like the SQLite one (history/sqlite/writer/sqlite-history-writer.ts):
// recordExecution() only encodes the record and queues it, never throws and never waits; batches of it are
// sent (one transaction each, batch-insert.ts) with several in flight at once on the pool (maxInFlight):
// with one, a gateway's writes waited on every round trip and left the server's other core idle while the
// client encoded the next batch. Records whose rows must be written in order (a gateway's config, a
// session, the executions of a session whose record is in flight) wait for the batch holding that row
// (send-order.ts). When PostgreSQL is unreachable (a restart, a failover, a network cut) the failed
// batches go back in front of the queue and are retried with exponential backoff: nothing is lost while
// the queue is within its bound, and the insert is idempotent, so a retry of a batch that did commit
// before the connection dropped duplicates nothing. Beyond the bound (maxQueued), new records are counted
// as lost and said in stats().lastError.
// With a journal (a local path, as the SQLite history writer's: history/model/recording/journal.ts), every accepted record is
// on local disk within an interval until PostgreSQL has it: a gateway killed with SIGKILL, or stopped while the
// server is unreachable, loses nothing; the next recorder started with the same journal path writes it.
import { readFileSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type pg from 'pg';
import type { ExecutionRecord, Recorder, RecorderStats, SessionRecord } from '../../../shared/trace/execution';
import type { MessageRecord } from '../../../shared/trace/messages';
import { encodeGateway, encodeSession } from '../model/encode/encode';
import { deferPgExecution } from './deferred-execution';
import { encodeMessage } from '../model/encode/encode-message';
import type { Redactor } from '../model/redaction/redactor';
import { backoffDelay, describeError } from '../model/recording/retry-policy';
import { DEFAULT_JOURNAL_INTERVAL_MS, Journal } from '../model/recording/journal';
import { AfterTurn, redactNowEncodeLater } from '../model/recording/after-turn';
import { adoptOrphanSpills, releaseSpillPath } from '../model/recording/spill-adoption';
import type { PgItem } from './batch-insert';
import { describePgError } from './connection';
import { SendOrder, type Batch } from './send-order';
import { pgBatchSender, type PgBatchSender } from './writer-thread/batch-sender';
import { compressRecordsWithLz4 } from './writer-thread/lz4';

export interface PgHistoryWriterOptions {
  redactor?: Pick<Redactor, 'execution' | 'message'>;
  /** Records sent per transaction. Default 500. */
  batchSize?: number;
  /** Batches sent at once, each on its own pooled connection. Default 3. 1 = one at a time. */
  maxInFlight?: number;
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
  /**
   * Write batches on a thread of their own (writer-thread/batch-sender.ts), with a pool of their own; needs
   * `url`. Default true; false writes them on the recorder's thread with `pool`.
   */
  writerThread?: boolean;
}

export const DEFAULT_MAX_IN_FLIGHT = 3;

export interface PgHistoryWriterStats extends RecorderStats {
  retries: number;
  duplicates: number;
  lost: number;
  /** PostgreSQL is unreachable right now (the queue is being retried). */
  disconnected: boolean;
  /** Where batches are written: the recorder's own thread, or the gateway's (its fallback). */
  writer: 'worker' | 'in-thread';
}

/** Connection-level and server-capacity errors: the same batch is written again later. */
export function isPgTransient(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return true; // no SQLSTATE: the connection failed (reset, timeout, refused)
  if (/^E[A-Z]+$/.test(code)) return true;
  return /^(08|53|57P|40|58|55P03|57014)/.test(code);
}

export class PgHistoryWriter implements Recorder {
  private readonly order: SendOrder;
  private readonly sender: PgBatchSender;
  private readonly host: string;
  private readonly batchSize: number;
  private readonly maxInFlight: number;
  /** Armed when records wait for companions (flushIntervalMs), or for the backoff after a failure. */
  private timer: NodeJS.Timeout | undefined;
  private backingOff = false;
  private failures = 0;
  private closed = false;
  /** Records handed over this turn, encoded and queued after the turn's writes (after-turn.ts). */
  private readonly afterTurn = new AfterTurn();
  /** close() gave up waiting: what was still unwritten is accounted for; late answers change nothing. */
  private abandoned = false;
  private accepted = 0;
  private settled = 0;
  private waiters: { target: number; resolve: () => void }[] = [];
  private readonly counters = { written: 0, failed: 0, retries: 0, duplicates: 0, lost: 0 };
  private lastError: string | undefined;
  private disconnected = false;
  private readonly journal: Journal<PgItem> | undefined;
  /** Journals of dead processes, adopted: deleted once everything read from them is settled. */
  private adopted: { path: string; target: number }[] = [];

  constructor(
    readonly pool: pg.Pool,
    private readonly options: PgHistoryWriterOptions = {},
  ) {
    this.host = options.host ?? hostname();
    this.batchSize = Math.max(1, options.batchSize ?? 500);
    this.maxInFlight = Math.max(1, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
    this.order = new SendOrder(this.batchSize);
    // Set on a connection's first use by the recorder (the pool's first connection ran the migrations).
    compressRecordsWithLz4(pool);
    this.sender = pgBatchSender(pool, this.host, this.maxInFlight, options, (m) => this.fail(m));
    if (options.journal) {
      // One JSON line per item, read back by adoptJournals (a deferred execution keeps its text as a string).
      this.journal = new Journal<PgItem>(
        options.journal.path,
        options.journal.intervalMs ?? DEFAULT_JOURNAL_INTERVAL_MS,
        (m) => this.fail(m),
        undefined,
        (item) => `${JSON.stringify(item)}\n`,
      );
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
            this.order.push(JSON.parse(line) as PgItem);
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
    if (this.order.waiting > 0) this.arm(0);
  }

  recordGateway(name: string, config: unknown): void {
    this.later(() => encodeGateway(name, config, new Date().toISOString()));
  }

  recordSession(session: SessionRecord): void {
    this.later(() => ({ ...encodeSession(session), json: JSON.stringify(session) }));
  }

  recordExecution(execution: ExecutionRecord): void {
    const redactor = this.options.redactor;
    this.later(
      // Checked and serialized here; encoded by the writer thread (deferred-execution.ts).
      redactNowEncodeLater(execution, redactor && ((r) => redactor.execution(r)), deferPgExecution),
    );
  }

  /** A captured JSON-RPC message (the Messages view): redacted, cut at 64 Ki characters, and sent in the same batches. */
  recordMessage(message: MessageRecord): void {
    const redactor = this.options.redactor;
    this.later(redactNowEncodeLater(message, redactor?.message && ((m) => redactor.message!(m)), encodeMessage));
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

  /** `queued` counts every record not yet in PostgreSQL: waiting, being retried or in flight. */
  stats(): PgHistoryWriterStats {
    this.afterTurn.runAll(); // what was handed over counts as queued (or refused) at once
    return {
      queued: this.order.unsettled,
      ...this.counters,
      ...(this.lastError ? { lastError: this.lastError } : {}),
      disconnected: this.disconnected,
      writer: this.sender.mode,
    };
  }

  /** Resolves when everything accepted so far is stored (or counted as failed). */
  flush(): Promise<void> {
    this.afterTurn.runAll();
    if (this.settled >= this.accepted) return Promise.resolve();
    const target = this.accepted;
    this.pump(true);
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
    if (expired && this.order.unsettled > 0) {
      this.abandoned = true;
      const rest = this.order.abandon();
      const n = rest.filter((i) => i.kind === 'execution').length;
      if (this.journal) {
        // Kept on disk: the next recorder started with this journal path writes them.
        this.journal.write();
        this.fail(`closing with ${n} executions not yet in PostgreSQL (${this.lastError ?? 'unreachable'}): kept in ${this.journal.path} for the next start`);
      } else {
        this.counters.lost += n;
        this.fail(`closing with ${n} executions not written to PostgreSQL (${this.lastError ?? 'unreachable'})`);
      }
      this.settle(rest.length);
    } else this.journal?.close(); // everything is in PostgreSQL
    if (this.timer) clearTimeout(this.timer);
    await this.sender.close().catch(() => {});
    await this.pool.end().catch(() => {});
  }

  /** Accepts a record after this turn's writes (see after-turn.ts); at once once closed. */
  private later(encode: () => PgItem): void {
    if (this.closed) this.accept(encode);
    else this.afterTurn.add(() => this.accept(encode));
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
    if (this.order.unsettled >= (this.options.maxQueued ?? 200_000)) {
      this.counters.lost++;
      this.counters.failed++;
      this.fail(`the recording queue is full (${this.order.unsettled} records waiting for PostgreSQL): this record was dropped`);
      return;
    }
    this.accepted++;
    this.order.push(item);
    this.journal?.add(item);
    if (this.order.waiting >= this.batchSize) this.pump(false);
    else this.arm(this.options.flushIntervalMs ?? 50);
  }

  /** A timer that sends what waits, partial batches included, when it fires (unless backing off). */
  private arm(delayMs: number): void {
    if (this.timer || this.backingOff) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump(true);
    }, delayMs);
  }

  /**
   * Starts batches while a slot is free. A full batch goes at once; a partial one when `partial` (its
   * records have waited the flush interval, or a flush asked for them) or when nothing else is in flight,
   * as a single writer sent the rest of its queue as soon as its batch was done.
   */
  private pump(partial: boolean): void {
    if (this.abandoned || this.backingOff) return;
    while (this.order.inFlight < this.maxInFlight) {
      const batch = this.order.next(partial || this.order.inFlight === 0);
      if (!batch) break;
      void this.send(batch);
    }
    if (this.order.waiting > 0 && this.order.inFlight > 0) this.arm(this.options.flushIntervalMs ?? 50);
  }

  private async send(batch: Batch): Promise<void> {
    let retry: PgItem[] = [];
    let transient: unknown;
    try {
      const r = await this.sender.write(batch.items);
      this.done(batch.items, r.inserted, r.duplicates);
      this.reachable();
    } catch (err) {
      if (isPgTransient(err)) {
        retry = batch.items;
        transient = err;
      } else {
        // PostgreSQL refused the batch for its content: halves, so one bad record costs only itself.
        const left = await this.writeHalves(batch.items, err);
        retry = left.items;
        transient = left.error;
      }
    }
    if (this.abandoned) return;
    this.order.finished(batch, retry);
    if (retry.length > 0) this.backOff(transient, retry.length);
    this.pump(false);
  }

  /**
   * `items` were refused for their content (`refusal`): writes them in halves down to the single records
   * refused (counted as failed). A half lost to a transient error is returned with what follows it, to retry.
   */
  private async writeHalves(items: PgItem[], refusal: unknown): Promise<{ items: PgItem[]; error?: unknown }> {
    if (items.length === 1) {
      this.counters.failed++;
      this.fail(`PostgreSQL refused a record: ${describeError(refusal)}`);
      this.done(items, 0, 0);
      return { items: [] };
    }
    const mid = Math.ceil(items.length / 2);
    const halves = [items.slice(0, mid), items.slice(mid)] as const;
    for (const i of [0, 1] as const) {
      try {
        const r = await this.sender.write(halves[i]);
        this.done(halves[i], r.inserted, r.duplicates);
      } catch (err) {
        if (isPgTransient(err)) return { items: i === 0 ? items : halves[1], error: err };
        const left = await this.writeHalves(halves[i], err);
        if (left.items.length > 0) return { items: i === 0 ? [...left.items, ...halves[1]] : left.items, error: left.error };
      }
    }
    return { items: [] };
  }

  private reachable(): void {
    if (this.disconnected) this.options.onError?.(`PostgreSQL reachable again; ${this.order.unsettled} records still queued`);
    this.disconnected = false;
    this.failures = 0;
  }

  /** Waits before sending again; the batches that failed together count as one failure for the delay. */
  private backOff(err: unknown, n: number): void {
    this.counters.retries++;
    this.disconnected = true;
    this.fail(`${describePgError(err, this.options.url ?? '')}; retrying ${n} records, ${this.order.unsettled} queued`);
    if (this.backingOff) return;
    this.failures++;
    this.backingOff = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.backingOff = false;
        this.pump(true);
      },
      backoffDelay(this.failures, { baseMs: 100, maxMs: 5000 }),
    );
  }

  private done(items: readonly PgItem[], inserted: number, duplicates: number): void {
    if (this.abandoned) return;
    this.order.settled(items);
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
