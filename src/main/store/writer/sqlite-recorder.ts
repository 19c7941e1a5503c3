// The Recorder the gateway hands every exchange to. recordExecution() only encodes the record and
// queues it (never throws, never blocks on the database); a timer writes the queue in batches, one
// transaction per batch. Beyond a memory bound, records spill to a JSONL file next to the database.
// A busy, locked or full database pauses writing with exponential backoff; every failure is counted.
import { appendFileSync } from 'node:fs';
import type { ExecutionRecord, Recorder, RecorderStats, SessionRecord } from '../../../shared/trace/execution';
import type { EncodedItem } from '../codec/encoded';
import { encodeExecution, encodeGateway, encodeSession } from '../codec/encode';
import { ExecutionInserter } from '../codec/inserter';
import { openStore, type Store } from '../open/open-store';
import type { Redactor } from '../redaction/redactor';
import { backoffDelay, DEFAULT_BACKOFF, describeError, isTransient, type BackoffOptions } from './retry-policy';
import { SpillFile, type SpillBatch } from './spill-file';
import { adoptOrphanSpills, newSpillPath, releaseSpillPath } from './spill-files';

export interface SqliteRecorderOptions {
  /** Longest a record waits in memory before its batch is written. Default 100 ms. */
  flushIntervalMs?: number;
  /** Records per transaction; a queue this long is written at once. Default 1000. */
  batchSize?: number;
  /** Memory bound of the queue; beyond it records spill to disk. Defaults: 64 MiB, 50,000 records. */
  maxQueueBytes?: number;
  maxQueueItems?: number;
  backoff?: Partial<BackoffOptions>;
  /** Applied to every record before it is encoded: redaction at rest. */
  redactor?: Redactor;
  /** Told about every failure (for a logger). */
  onError?: (message: string) => void;
  /** Told after each committed batch, so readers can refresh ("tables changed"). */
  onWritten?: (change: { executions: number; sessions: number; gateways: number }) => void;
}

export interface SqliteRecorderStats extends RecorderStats {
  /** Records waiting: in memory and in spill files. */
  queued: number;
  /** Executions now in the database. */
  written: number;
  /** Every recording failure: failed write attempts (retried), rejected records, lost records. */
  failed: number;
  lastError?: string;
  /** Failed write attempts; each was retried with backoff. */
  retries: number;
  /** True while writing is paused after a failure. */
  paused: boolean;
  /** Records waiting in spill files on disk (part of `queued`). */
  spilled: number;
  /** Records the database refused (invalid for its schema); kept in `deadLetterPath`. */
  rejected: number;
  /** Records that could be kept nowhere (the disk refused the spill file too). Should stay 0. */
  lost: number;
  /** Executions already in the database (same uuid), skipped. */
  duplicates: number;
  deadLetterPath: string;
}

interface Pending {
  item: EncodedItem;
}

export class SqliteRecorder implements Recorder {
  /** Opens (creating if needed) the database at `path` and records into it; closes it on close(). */
  static open(path: string, options: SqliteRecorderOptions & { busyTimeoutMs?: number } = {}): SqliteRecorder {
    // A short busy timeout: SQLite waits synchronously, which would stall traffic; retries are async.
    const store = openStore(path, { busyTimeoutMs: options.busyTimeoutMs ?? 100 });
    return new SqliteRecorder(store, options, true);
  }

  private readonly inserter: ExecutionInserter;
  private readonly opts: Required<Pick<SqliteRecorderOptions, 'flushIntervalMs' | 'batchSize' | 'maxQueueBytes' | 'maxQueueItems'>>;
  private readonly backoff: BackoffOptions;
  private memory: Pending[] = [];
  private memoryBytes = 0;
  private ownSpill: SpillFile | undefined;
  private readonly adopted: SpillFile[];
  private enqueued = 0;
  private settled = 0;
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private consecutiveFailures = 0;
  private closed = false;
  private counters = { written: 0, retries: 0, rejected: 0, lost: 0, duplicates: 0 };
  private lastError: string | undefined;
  readonly deadLetterPath: string;

  constructor(
    readonly store: Store,
    private readonly options: SqliteRecorderOptions = {},
    private readonly ownsStore = false,
  ) {
    this.inserter = new ExecutionInserter(store.db);
    this.opts = {
      flushIntervalMs: options.flushIntervalMs ?? 100,
      batchSize: options.batchSize ?? 1000,
      maxQueueBytes: options.maxQueueBytes ?? 64 * 1024 * 1024,
      maxQueueItems: options.maxQueueItems ?? 50_000,
    };
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.deadLetterPath = `${store.path}.rejected.jsonl`;
    // Spill files left by a process that died are drained too: nothing it accepted is lost.
    this.adopted = adoptOrphanSpills(store.path).map((p) => new SpillFile(p));
    if (this.adopted.length > 0) this.schedule();
  }

  /** Records (or updates) a gateway's config snapshot. */
  recordGateway(name: string, config: unknown): void {
    this.accept(() => encodeGateway(name, config, new Date().toISOString()));
  }

  recordSession(session: SessionRecord): void {
    this.accept(() => encodeSession(session));
  }

  recordExecution(execution: ExecutionRecord): void {
    this.accept(() => encodeExecution(this.options.redactor ? this.options.redactor.execution(execution) : execution));
  }

  stats(): SqliteRecorderStats {
    const spilled = (this.ownSpill?.count ?? 0) + this.adopted.reduce((n, s) => n + s.count, 0);
    const { written, retries, rejected, lost, duplicates } = this.counters;
    return {
      queued: this.memory.length + spilled,
      written,
      failed: retries + rejected + lost,
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
      retries,
      paused: this.retryTimer !== undefined,
      spilled,
      rejected,
      lost,
      duplicates,
      deadLetterPath: this.deadLetterPath,
    };
  }

  /**
   * Resolves when everything queued before the call is in the database. While the database
   * refuses writes, it instead makes the remaining records durable in the spill file and resolves
   * (stats().spilled says how many wait there; they are written once the database accepts them).
   */
  async flush(): Promise<void> {
    const target = this.enqueued;
    while (this.settled < target) {
      const result = this.writeOneBatch();
      if (result === 'failed') {
        this.spillMemory();
        this.scheduleRetry();
        return;
      }
      if (result === 'idle') break;
      // Let traffic through between batches.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.clearTimers();
    await this.flush();
    this.clearTimers();
    this.closed = true;
    if (this.ownSpill) {
      try {
        this.ownSpill.writeBuffer();
      } catch (err) {
        this.loseSpillBuffer(err);
      }
      releaseSpillPath(this.ownSpill.path);
    }
    // Whatever is left in spill files is adopted by the next recorder on this database.
    for (const file of this.adopted) releaseSpillPath(file.path);
    if (this.ownsStore) {
      try {
        this.store.db.pragma('optimize');
      } catch {
        // Only a planner hint; a locked file must not fail close().
      }
      this.store.close();
    }
  }

  private accept(encode: () => EncodedItem): void {
    if (this.closed) {
      this.counters.lost++;
      this.fail('a record arrived after the recorder was closed; it was not recorded');
      return;
    }
    let item: EncodedItem;
    try {
      item = encode();
    } catch (err) {
      // Not encodable (a gateway bug): nothing to write, but the loss is counted and reported.
      this.counters.rejected++;
      this.fail(`record rejected: ${describeError(err)}`);
      return;
    }
    this.enqueued++;
    const spilling = (this.ownSpill?.count ?? 0) > 0;
    if (spilling || this.memoryBytes + item.bytes > this.opts.maxQueueBytes || this.memory.length >= this.opts.maxQueueItems) {
      this.spill(item);
    } else {
      this.memory.push({ item });
      this.memoryBytes += item.bytes;
    }
    this.schedule();
  }

  private spill(item: EncodedItem): void {
    this.ownSpill ??= new SpillFile(newSpillPath(this.store.path));
    try {
      this.ownSpill.append(item);
    } catch (err) {
      this.loseSpillBuffer(err);
    }
  }

  private spillMemory(): void {
    const items = this.memory;
    this.memory = [];
    this.memoryBytes = 0;
    if (items.length === 0) return;
    this.ownSpill ??= new SpillFile(newSpillPath(this.store.path));
    try {
      for (const p of items) this.ownSpill.append(p.item);
      this.ownSpill.writeBuffer();
    } catch (err) {
      this.loseSpillBuffer(err);
    }
  }

  private loseSpillBuffer(err: unknown): void {
    const n = this.ownSpill?.dropBuffer() ?? 0;
    this.counters.lost += n;
    this.settled += n;
    this.fail(`${n} record(s) lost: the spill file ${this.ownSpill?.path} could not be written (${describeError(err)})`);
  }

  private schedule(): void {
    if (this.closed || this.timer || this.retryTimer) return;
    const pending = this.memory.length + (this.ownSpill?.count ?? 0) + this.adopted.reduce((n, s) => n + s.count, 0);
    if (pending === 0) return;
    const delay = pending >= this.opts.batchSize ? 0 : this.opts.flushIntervalMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.writeOneBatch() === 'failed') this.scheduleRetry();
      else this.schedule();
    }, delay);
    // The recorder never keeps a process alive by itself; owners flush or close before exiting.
    this.timer.unref();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer) return;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.writeOneBatch() === 'failed') this.scheduleRetry();
      else this.schedule();
    }, backoffDelay(this.consecutiveFailures, this.backoff));
    this.retryTimer.unref();
  }

  private clearTimers(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.timer = undefined;
    this.retryTimer = undefined;
  }

  /** Writes the oldest batch in one transaction. Synchronous, so it never interleaves with itself. */
  private writeOneBatch(): 'progress' | 'idle' | 'failed' {
    let items: EncodedItem[];
    let spill: { file: SpillFile; batch: SpillBatch; own: boolean } | undefined;
    if (this.memory.length > 0) {
      items = this.memory.slice(0, this.opts.batchSize).map((p) => p.item);
    } else {
      const file = this.ownSpill && this.ownSpill.count > 0 ? this.ownSpill : this.adopted.find((s) => s.count > 0);
      if (!file) return 'idle';
      let batch: SpillBatch;
      try {
        batch = file.read(this.opts.batchSize);
      } catch (err) {
        this.consecutiveFailures++;
        this.counters.retries++;
        this.fail(`cannot read the spill file ${file.path}: ${describeError(err)}`);
        return 'failed';
      }
      items = batch.items;
      spill = { file, batch, own: file === this.ownSpill };
      if (batch.unreadable > 0) {
        this.counters.lost += batch.unreadable;
        this.fail(`${batch.unreadable} torn line(s) in ${file.path} could not be read; those records are lost`);
      }
    }

    let outcome: { written: number; duplicates: number; sessions: number; gateways: number; rejected: number };
    try {
      outcome = this.writeItems(items);
    } catch (err) {
      this.inserter.resetCaches();
      this.consecutiveFailures++;
      this.counters.retries++;
      this.fail(`recording paused, will retry: ${describeError(err)}`);
      return 'failed';
    }
    this.consecutiveFailures = 0;
    if (spill) {
      spill.file.commit(spill.batch);
      if (spill.own) this.settled += items.length + spill.batch.unreadable;
      if (!spill.own && spill.file.count === 0) {
        this.adopted.splice(this.adopted.indexOf(spill.file), 1);
        releaseSpillPath(spill.file.path);
      }
    } else {
      const done = this.memory.splice(0, items.length);
      for (const p of done) this.memoryBytes -= p.item.bytes;
      this.settled += items.length;
    }
    this.counters.written += outcome.written;
    this.counters.duplicates += outcome.duplicates;
    if (outcome.written + outcome.sessions + outcome.gateways > 0) {
      try {
        this.options.onWritten?.({ executions: outcome.written, sessions: outcome.sessions, gateways: outcome.gateways });
      } catch {
        // A listener's bug must not stop recording.
      }
    }
    return 'progress';
  }

  /**
   * One transaction for the batch. When the database refuses an item for what it is (a constraint,
   * a value too big), the batch is retried item by item and the refused ones go to the dead-letter
   * file; a transient error (busy, locked, full) propagates so the whole batch is retried later.
   */
  private writeItems(items: EncodedItem[]) {
    const tally = { written: 0, duplicates: 0, sessions: 0, gateways: 0, rejected: 0 };
    const count = (item: EncodedItem, result: string) => {
      if (item.kind === 'execution') {
        if (result === 'written') tally.written++;
        else tally.duplicates++;
      } else if (item.kind === 'session') tally.sessions++;
      else tally.gateways++;
    };
    const db = this.store.db;
    try {
      const results = db
        .transaction(() => {
          this.inserter.beginBatch();
          const results = items.map((item) => this.inserter.write(item));
          this.inserter.endBatch();
          return results;
        })
        .immediate();
      items.forEach((item, i) => count(item, results[i] ?? 'written'));
      return tally;
    } catch (err) {
      if (isTransient(err)) throw err;
      this.inserter.resetCaches();
    }
    for (const item of items) {
      try {
        const result = db
          .transaction(() => {
            this.inserter.beginBatch();
            const result = this.inserter.write(item);
            this.inserter.endBatch();
            return result;
          })
          .immediate();
        count(item, result);
      } catch (err) {
        this.inserter.resetCaches();
        if (isTransient(err)) throw err;
        this.reject(item, err);
        tally.rejected++;
      }
    }
    return tally;
  }

  private reject(item: EncodedItem, err: unknown): void {
    this.counters.rejected++;
    const what = item.kind === 'execution' ? `execution ${item.uuid}` : item.kind === 'session' ? `session ${item.key}` : `gateway ${item.name}`;
    try {
      appendFileSync(this.deadLetterPath, `${JSON.stringify({ reason: describeError(err), item })}\n`);
      this.fail(`${what} was refused by the database (${describeError(err)}); kept in ${this.deadLetterPath}`);
    } catch (writeErr) {
      this.counters.lost++;
      this.fail(`${what} was refused by the database (${describeError(err)}) and could not be kept: ${describeError(writeErr)}`);
    }
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
