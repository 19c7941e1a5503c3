// Crash safety for records the writer has not committed yet. Every record accepted by the recorder is
// appended to `<db>.journal-<pid>-<token>.jsonl` within one journal interval (default 250 ms) unless the
// database committed it first, and the file is fsync'd in that same group. A process killed with
// SIGKILL so loses no record accepted more than an interval (plus one fsync) before it died: the next
// recorder opened on this database adopts the journal like an orphan spill file (spill-adoption.ts) and
// writes it, idempotently (executions by uuid, sessions and gateways as upserts). The file is emptied
// whenever everything it holds is committed, and deleted on a clean close.
//
// Only records at least three quarters of an interval old are written, on a tick every quarter interval: a
// record is so still on disk within one interval of being accepted, but the many that the writer commits
// sooner (its flush interval is 100 ms, a batch commits within tens of ms) are never serialized for the
// journal at all. Writing everything waiting at each tick re-serialized about half of all records (the
// fresh ones of the last batch), which with message capture on (a dozen records per call) was the largest
// cost of recording on the gateway's own thread; at half an interval (tick and age), the records of a batch
// that waited for the flush timer still reached the file (about a fifth of all records under the samples
// load, 15-45 µs per call on the gateway's thread).
//
// The file is never truncated while its fdatasync runs (in the thread pool): truncating pages under
// writeback waits for the disk, on the gateway's thread (seen under load: ~0.3 ms per call of ftruncate in a
// profile, up to a flush's length for one call). Emptying then waits for the flush to end.
import { closeSync, fdatasync, ftruncateSync, openSync, unlinkSync, writeSync } from 'node:fs';
import type { QueueItem } from '../encode/encoded';
import { fileLine } from '../encode/deferred';
import { newJournalPath, releaseSpillPath } from './spill-adoption';

export const DEFAULT_JOURNAL_INTERVAL_MS = 250;

/** Fractions of the interval: a record this old is written at the next tick; tick + age = one interval. */
const JOURNAL_AGE = 3 / 4;
const JOURNAL_TICK = 1 - JOURNAL_AGE;

/** The file operations the journal uses (tests slow them down to see what waits for what). */
export interface JournalFs {
  fdatasync(fd: number, done: (err: NodeJS.ErrnoException | null) => void): void;
  ftruncateSync(fd: number, len: number): void;
}

const nodeFs: JournalFs = { fdatasync, ftruncateSync };

/** T: what the recorder queues (the SQLite recorder's QueueItem by default); `line` writes one as a line of the file. */
export class Journal<T extends object = QueueItem> {
  readonly path: string;
  private fd: number | undefined;
  /** Accepted, neither journaled nor committed yet, with when (performance.now()); insertion order = record order. */
  private readonly waiting = new Map<T, number>();
  /** Journaled and not yet committed: while any are, the file must keep them. */
  private readonly held = new Set<T>();
  private timer: NodeJS.Timeout | undefined;
  private syncing = false;
  private dirty = false;
  /** Everything in the file was committed while a flush ran: empty it once the flush ends. */
  private emptyAfterSync = false;
  private bytes = 0;

  constructor(
    dbPath: string,
    private readonly intervalMs: number,
    private readonly fail: (message: string) => void,
    private readonly fs: JournalFs = nodeFs,
    private readonly line: (item: T) => string = fileLine as (item: T) => string,
  ) {
    this.path = newJournalPath(dbPath);
    this.fd = openSync(this.path, 'a', 0o600);
  }

  add(item: T): void {
    this.waiting.set(item, performance.now());
    this.arm();
  }

  private arm(): void {
    if (this.timer || this.waiting.size === 0 || this.fd === undefined) return;
    const tick = this.intervalMs * JOURNAL_TICK;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.write(performance.now() - this.intervalMs * JOURNAL_AGE);
      this.arm();
    }, tick);
    this.timer.unref();
  }

  /** These items are in the database: no need to journal them, nor to keep them in the file. */
  committed(items: readonly T[]): void {
    for (const item of items) if (!this.held.delete(item)) this.waiting.delete(item);
    this.emptyIfAllCommitted();
  }

  private emptyIfAllCommitted(): void {
    if (this.held.size !== 0 || this.bytes === 0 || this.fd === undefined) return;
    if (this.syncing) {
      this.emptyAfterSync = true;
      return;
    }
    this.emptyAfterSync = false;
    try {
      this.fs.ftruncateSync(this.fd, 0);
      this.bytes = 0;
    } catch (err) {
      this.fail(`cannot empty the journal ${this.path}: ${(err as Error).message}`);
    }
  }

  /** Appends the waiting records accepted at or before `acceptedBy` (default: all) now, then fsyncs (in the background). */
  write(acceptedBy = Infinity): void {
    if (this.fd === undefined || this.waiting.size === 0) return;
    const lines: string[] = [];
    for (const [item, at] of this.waiting) {
      if (at > acceptedBy) break; // the rest are younger still (performance.now() never goes back)
      lines.push(this.line(item));
      this.held.add(item);
      this.waiting.delete(item);
    }
    if (lines.length === 0) return;
    const text = lines.join('');
    try {
      this.bytes += writeSync(this.fd, text);
    } catch (err) {
      this.fail(`cannot write the journal ${this.path} (${(err as Error).message}); records not yet in the database are at risk if the process dies`);
      return;
    }
    this.sync();
  }

  /** A clean close: the recorder committed or spilled everything, so the journal is not needed. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return;
    try {
      closeSync(fd);
      unlinkSync(this.path);
    } catch {
      // Left behind: the next recorder replays it, and replaying is idempotent.
    }
    releaseSpillPath(this.path);
  }

  private sync(): void {
    if (this.syncing) {
      this.dirty = true;
      return;
    }
    const fd = this.fd;
    if (fd === undefined) return;
    this.syncing = true;
    this.dirty = false;
    this.fs.fdatasync(fd, (err) => {
      this.syncing = false;
      if (err && this.fd !== undefined) this.fail(`cannot fsync the journal ${this.path}: ${err.message}`);
      // Lines written since this flush began need one more; emptying waits until none is due.
      if (this.dirty) this.sync();
      else if (this.emptyAfterSync) this.emptyIfAllCommitted();
    });
  }
}
