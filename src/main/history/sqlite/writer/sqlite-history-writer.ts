// The SQLite history writer: the Recorder the gateway hands every exchange to. recordExecution() only
// checks the record and keeps it as JSON text (a snapshot with a known size, encoded by the writer thread:
// deferred.ts), other records are encoded, and each is queued: it never throws and never touches the
// database. A timer sends the queue in batches to the writer (a worker thread, one transaction per batch).
// Beyond a memory bound, records spill to a JSONL file next to the database. A busy, locked or
// full database pauses writing with exponential backoff; every failure is counted and reported.
import type { ExecutionRecord, Recorder, SessionRecord } from '../../../../shared/trace/execution';
import type { AcceptedItem, QueueItem } from '../../model/encode/encoded';
import { encodeExecution, encodeGateway, encodeSession } from '../../model/encode/encode';
import { deferExecution } from '../../model/encode/deferred';
import { encodeMessage } from '../../model/encode/encode-message';
import type { MessageRecord } from '../../../../shared/trace/messages';
import { openStore, type Store } from '../open/open-store';
import { InThreadBatchWriter, type BatchWriter } from './batch-writer';
import { keepRefused } from './dead-letter';
import type { SqliteHistoryWriterOptions, SqliteHistoryWriterStats } from './sqlite-history-writer-options';
import { backoffDelay, DEFAULT_BACKOFF, describeError, pausedMessage, type BackoffOptions } from '../../model/recording/retry-policy';
import { DEFAULT_JOURNAL_INTERVAL_MS, Journal } from '../../model/recording/journal';
import { Spills, type SpillRead } from './spills';
import { WorkerBatchWriter, writerThreadEntry } from './worker-batch-writer';
import { FlushTimers } from './flush-timers';
import { AfterTurn, redactNowEncodeLater } from '../../model/recording/after-turn';

export type { SqliteHistoryWriterOptions, SqliteHistoryWriterStats } from './sqlite-history-writer-options';

type WriteAttempt = 'progress' | 'idle' | 'failed';

const MAX_IN_FLIGHT = 2;

export class SqliteHistoryWriter implements Recorder {
  /**
   * Opens (creating and migrating if needed) the database at `path` and records into it. Throws
   * StoreOpenError for a foreign, corrupt or newer file. `recorder.store` stays open for reading.
   */
  static open(path: string, options: SqliteHistoryWriterOptions = {}): SqliteHistoryWriter {
    const threaded = options.writerThread ?? true;
    // In-thread writing keeps SQLite's (synchronous) busy wait short and retries asynchronously;
    // this connection then only reads, or writes rarely (import, prune), and may wait longer.
    const store = openStore(path, { busyTimeoutMs: threaded ? 5000 : (options.busyTimeoutMs ?? 100) });
    return new SqliteHistoryWriter(store, options, true);
  }

  private readonly writer: BatchWriter;
  private readonly opts: Required<Pick<SqliteHistoryWriterOptions, 'flushIntervalMs' | 'batchSize' | 'maxQueueBytes' | 'maxQueueItems'>>;
  private readonly backoff: BackoffOptions;
  private memory: AcceptedItem[] = [];
  private memoryBytes = 0;
  private readonly spills: Spills;
  private enqueued = 0;
  private settled = 0;
  private readonly timers: FlushTimers;
  /**
   * Batches sent and not yet answered, oldest first: at most MAX_IN_FLIGHT. The second is sent
   * ahead so that the writer thread starts on it the moment the first commits: a busy gateway's
   * event loop may take a while to read the writer's answer, and the thread would idle meanwhile.
   */
  private inFlight: { run: Promise<WriteAttempt>; items: QueueItem[]; fromMemory: boolean }[] = [];
  private consecutiveFailures = 0;
  private closed = false;
  /** Records handed over this turn, encoded and queued after the turn's writes (after-turn.ts). */
  private readonly afterTurn = new AfterTurn();
  private counters = { written: 0, retries: 0, rejected: 0, lost: 0, duplicates: 0 };
  private lastError: string | undefined;
  readonly deadLetterPath: string;
  /** Crash safety: records not yet committed, on disk within an interval (journal.ts). */
  private readonly journal: Journal | undefined;

  constructor(
    readonly store: Store,
    private readonly options: SqliteHistoryWriterOptions = {},
    private readonly ownsStore = false,
  ) {
    this.opts = {
      flushIntervalMs: options.flushIntervalMs ?? 100,
      batchSize: options.batchSize ?? 1000,
      maxQueueBytes: options.maxQueueBytes ?? 64 * 1024 * 1024,
      maxQueueItems: options.maxQueueItems ?? 50_000,
    };
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.timers = new FlushTimers(this.opts.flushIntervalMs);
    this.deadLetterPath = `${store.path}.rejected.jsonl`;
    const entry = options.writerThread === false ? undefined : writerThreadEntry();
    this.writer = entry
      ? new WorkerBatchWriter(
          entry,
          { path: store.path, busyTimeoutMs: options.busyTimeoutMs ?? 2000, checkpointerAfterItems: options.checkpointerAfterItems },
          () => new InThreadBatchWriter(store),
          (reason) => this.fail(reason),
        )
      : new InThreadBatchWriter(store);
    this.journal = options.journal ? new Journal(store.path, options.journalIntervalMs ?? DEFAULT_JOURNAL_INTERVAL_MS, (m) => this.fail(m)) : undefined;
    // Spill files and journals left by a process that died are drained too: nothing it accepted is lost.
    this.spills = new Spills(store.path, (n, message) => {
      this.counters.lost += n;
      this.settled += n;
      this.fail(message);
    });
    this.schedule(); // arms the flush timer only when an adopted file holds records
  }

  /** Records (or updates) a gateway's config snapshot. */
  recordGateway(name: string, config: unknown): void {
    this.later(() => encodeGateway(name, config, new Date().toISOString()));
  }

  recordSession(session: SessionRecord): void {
    this.later(() => encodeSession(session));
  }

  recordExecution(execution: ExecutionRecord): void {
    // Checked and kept as its JSON text here, encoded by the writer thread (deferred.ts): the gateway's
    // thread pays for one JSON.stringify instead of the encoding and the structured clone of its result.
    // Not while the writer is behind: then its thread is the limit, and encoding here overlaps its inserts.
    const redactor = this.options.redactor;
    this.later(
      redactNowEncodeLater(execution, redactor && ((r) => redactor.execution(r)), (record) =>
        this.writerBehind() ? encodeExecution(record) : deferExecution(record),
      ),
    );
  }

  /** A full batch waits beyond those sent (or records spill): the writer does not keep up. */
  private writerBehind(): boolean {
    return this.spills.ownCount > 0 || this.memory.length - this.sentFromMemory() >= this.opts.batchSize;
  }

  /** A captured JSON-RPC message: encoded (serialized once, cut at 64 Ki characters) and queued like an execution. */
  recordMessage(message: MessageRecord): void {
    const redactor = this.options.redactor;
    this.later(redactNowEncodeLater(message, redactor?.message && ((m) => redactor.message!(m)), encodeMessage));
  }

  stats(): SqliteHistoryWriterStats {
    this.afterTurn.runAll(); // what was handed over counts as queued (or rejected) at once
    const spilled = this.spills.count;
    const { written, retries, rejected, lost, duplicates } = this.counters;
    return {
      queued: this.memory.length + spilled,
      written,
      failed: retries + rejected + lost,
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
      retries,
      paused: this.timers.paused,
      spilled,
      rejected,
      lost,
      duplicates,
      deadLetterPath: this.deadLetterPath,
      writer: this.writer.mode,
    };
  }

  /** Runs SQL on the writing connection (tests: `PRAGMA max_page_count` simulates a full disk). */
  execOnWriter(sql: string): Promise<void> {
    return this.writer.exec(sql);
  }

  /**
   * Resolves when everything queued before the call is in the database. If the database keeps
   * refusing writes (retried with backoff for up to flushTimeoutMs), it instead makes the rest
   * durable in the spill file and resolves: stats().spilled says how many wait there; they are
   * written once the database accepts them, by this history writer or the next one on this file.
   */
  async flush(): Promise<void> {
    this.afterTurn.runAll();
    const target = this.enqueued;
    const deadline = Date.now() + (this.options.flushTimeoutMs ?? 5000);
    let failures = 0;
    // Adopted files (a dead process's spill or journal) count as queued: a flush drains them too.
    while (this.settled < target || this.spills.adoptedPending) {
      // Paused after a failure: try now rather than wait for the timer.
      this.timers.resume();
      const result = await this.pump();
      if (result === 'idle') break;
      if (result === 'progress') {
        failures = 0;
        continue;
      }
      const wait = backoffDelay(++failures, this.backoff);
      if (Date.now() + wait >= deadline) {
        // A timer's attempts: let them end, then spill their batches too. (Tested right after each
        // await: a pump waiting on the last batch may have sent another meanwhile.)
        while (this.inFlight.length > 0) await this.newestInFlight();
        this.spillMemory();
        this.scheduleRetry();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    this.afterTurn.runAll(); // handed over while the flush ran: queued, then spilled below if not written
    this.closed = true;
    this.timers.clear();
    while (this.inFlight.length > 0) await this.newestInFlight();
    this.spillMemory(); // anything still queued (the database refused it): durable for the next run
    // Whatever is left in spill files is adopted by the next history writer on this database.
    this.spills.close();
    this.journal?.close(); // everything is committed or spilled by now
    await this.writer.close();
    if (this.ownsStore) this.store.close();
  }

  private newestInFlight(): Promise<WriteAttempt> | undefined {
    return this.inFlight[this.inFlight.length - 1]?.run;
  }

  /** Items at the front of `memory` that are on their way to the writer (while no write has failed, they are the first ones). */
  private sentFromMemory(): number {
    return this.inFlight.reduce((n, b) => (b.fromMemory ? n + b.items.length : n), 0);
  }

  /** Accepts a record after this turn's writes (see after-turn.ts); at once once closed, to say it is lost. */
  private later(encode: () => AcceptedItem): void {
    if (this.closed) this.accept(encode);
    else this.afterTurn.add(() => this.accept(encode));
  }

  private accept(encode: () => AcceptedItem): void {
    if (this.closed) {
      this.counters.lost++;
      this.fail('a record arrived after the recorder was closed; it was not recorded');
      return;
    }
    let item: AcceptedItem;
    try {
      item = encode();
    } catch (err) {
      // Not encodable (a gateway bug): nothing to write, but the loss is counted and reported.
      this.counters.rejected++;
      this.fail(`record rejected: ${describeError(err)}`);
      return;
    }
    this.enqueued++;
    this.journal?.add(item);
    const spilling = this.spills.ownCount > 0;
    if (spilling || this.memoryBytes + item.bytes > this.opts.maxQueueBytes || this.memory.length >= this.opts.maxQueueItems) {
      this.spill(item);
    } else {
      this.memory.push(item);
      this.memoryBytes += item.bytes;
    }
    this.schedule();
  }

  private spill(item: QueueItem): void {
    this.journal?.committed([item]); // the spill file holds it now (spill-file.ts)
    this.spills.append([item], false);
  }

  /** Moves the memory queue (except batches in flight) to the spill file. */
  private spillMemory(): void {
    const keep = this.inFlight.reduce(
      (end, b) => (b.fromMemory ? Math.max(end, this.memory.indexOf(b.items[b.items.length - 1] as AcceptedItem) + 1) : end),
      0,
    );
    const items = this.memory.splice(keep);
    for (const item of items) this.memoryBytes -= item.bytes;
    if (items.length === 0) return;
    this.journal?.committed(items);
    this.spills.append(items, true);
  }

  private schedule(): void {
    if (this.closed || this.timers.paused) return;
    let immediate: boolean;
    if (this.inFlight.length === 0) {
      const pending = this.memory.length + this.spills.count;
      if (pending === 0) return;
      immediate = pending >= this.opts.batchSize;
    } else if (this.canSendAhead()) {
      immediate = true;
    } else return;
    this.timers.arm(immediate, () => this.attempt());
  }

  private scheduleRetry(): void {
    if (this.closed) return;
    this.timers.armRetry(backoffDelay(this.consecutiveFailures, this.backoff), () => this.attempt());
  }

  /** A timer's write: on failure the next try waits for the backoff, else the next batch is scheduled. */
  private attempt(): void {
    void this.pump().then((result) => (result === 'failed' ? this.scheduleRetry() : this.schedule()));
  }

  /**
   * A second batch goes out while one is in flight only when it is a full one from memory and
   * nothing has failed (after a failure the front of the queue is retried first, alone).
   */
  private canSendAhead(): boolean {
    return (
      this.inFlight.length < MAX_IN_FLIGHT &&
      this.inFlight.every((b) => b.fromMemory) &&
      this.consecutiveFailures === 0 &&
      this.memory.length - this.sentFromMemory() >= this.opts.batchSize
    );
  }

  /** Writes the oldest batch not yet sent. The writer takes batches in the order they are sent. */
  private pump(): Promise<WriteAttempt> {
    const newest = this.newestInFlight();
    if (newest && !this.canSendAhead()) return newest.then(() => this.pump());
    const batch = this.nextBatch();
    if (batch === 'idle' || batch === 'failed') return Promise.resolve(batch);
    const entry = { items: batch.items, fromMemory: batch.spill === undefined, run: this.writeBatch(batch) };
    entry.run = entry.run.finally(() => {
      this.inFlight.splice(this.inFlight.indexOf(entry), 1);
      // Records that arrived meanwhile get their timer (accept() does not arm one during a write).
      this.schedule();
    });
    this.inFlight.push(entry);
    this.schedule(); // the next full batch, if there is one, goes out ahead
    return entry.run;
  }

  /** The oldest records not yet sent: from memory, else from a spill file. */
  private nextBatch(): { items: QueueItem[]; spill?: SpillRead } | 'idle' | 'failed' {
    const sent = this.sentFromMemory();
    if (this.memory.length > sent) return { items: this.memory.slice(sent, sent + this.opts.batchSize) };
    let spill: SpillRead | undefined;
    try {
      spill = this.spills.read(this.opts.batchSize);
    } catch (err) {
      return this.failedAttempt((err as Error).message);
    }
    return spill ? { items: spill.batch.items, spill } : 'idle';
  }

  private async writeBatch({ items, spill }: { items: QueueItem[]; spill?: SpillRead }): Promise<WriteAttempt> {
    const result = await this.writer.write(items);
    if (!result.ok) return this.failedAttempt(pausedMessage(this.store.path, result.error));
    this.consecutiveFailures = 0;
    this.journal?.committed(items);
    for (const r of result.refused) this.reject(items[r.index]!, r.reason);
    if (spill) {
      if (spill.batch.unreadable > 0) {
        this.counters.lost += spill.batch.unreadable;
        this.fail(`${spill.batch.unreadable} torn line(s) in ${spill.file.path} could not be read; those records are lost`);
      }
      this.spills.committed(spill);
      if (spill.own) this.settled += items.length + spill.batch.unreadable;
    } else {
      // Usually at the front; behind an earlier batch's items when that one failed.
      const done = this.memory.splice(this.memory.indexOf(items[0] as AcceptedItem), items.length);
      for (const item of done) this.memoryBytes -= item.bytes;
      this.settled += items.length;
    }
    const { written, duplicates, sessions, gateways, messages } = result.tally;
    this.counters.written += written;
    this.counters.duplicates += duplicates;
    if (written + sessions + gateways + messages > 0) {
      try {
        this.options.onWritten?.({ executions: written, sessions, gateways, messages });
      } catch {
        // A listener's bug must not stop recording.
      }
    }
    return 'progress';
  }

  private failedAttempt(message: string): 'failed' {
    this.consecutiveFailures++;
    this.counters.retries++;
    this.fail(message);
    return 'failed';
  }

  private reject(item: QueueItem, reason: string): void {
    this.counters.rejected++;
    const kept = keepRefused(this.deadLetterPath, item, reason);
    if (!kept.ok) this.counters.lost++;
    this.fail(kept.message);
  }

  private fail(message: string): void {
    this.lastError = message;
    try {
      this.options.onError?.(message);
    } catch {
      // A logger's bug must not break traffic.
    }
  }
}
