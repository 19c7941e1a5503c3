// Crash safety for records the writer has not committed yet. Every record accepted by the recorder is
// appended to `<db>.journal-<pid>-<token>.jsonl` within one journal interval (default 250 ms) unless the
// database committed it first, and the file is fsync'd in that same group. A process killed with
// SIGKILL so loses no record accepted more than an interval (plus one fsync) before it died: the next
// recorder opened on this database adopts the journal like an orphan spill file (spill-files.ts) and
// writes it, idempotently (executions by uuid, sessions and gateways as upserts). The file is emptied
// whenever everything it holds is committed, and deleted on a clean close.
import { closeSync, fdatasync, ftruncateSync, openSync, unlinkSync, writeSync } from 'node:fs';
import type { EncodedItem } from '../sql/encoded';
import { newJournalPath, releaseSpillPath } from './spill-adoption';

export const DEFAULT_JOURNAL_INTERVAL_MS = 250;

export class Journal {
  readonly path: string;
  private fd: number | undefined;
  /** Accepted, neither journaled nor committed yet (insertion order = record order). */
  private readonly waiting = new Set<EncodedItem>();
  /** Journaled and not yet committed: while any are, the file must keep them. */
  private readonly held = new Set<EncodedItem>();
  private timer: NodeJS.Timeout | undefined;
  private syncing = false;
  private dirty = false;
  private bytes = 0;

  constructor(
    dbPath: string,
    private readonly intervalMs: number,
    private readonly fail: (message: string) => void,
  ) {
    this.path = newJournalPath(dbPath);
    this.fd = openSync(this.path, 'a', 0o600);
  }

  add(item: EncodedItem): void {
    this.waiting.add(item);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, this.intervalMs);
    this.timer.unref();
  }

  /** These items are in the database: no need to journal them, nor to keep them in the file. */
  committed(items: readonly EncodedItem[]): void {
    for (const item of items) if (!this.held.delete(item)) this.waiting.delete(item);
    if (this.held.size === 0 && this.bytes > 0 && this.fd !== undefined) {
      try {
        ftruncateSync(this.fd, 0);
        this.bytes = 0;
      } catch (err) {
        this.fail(`cannot empty the journal ${this.path}: ${(err as Error).message}`);
      }
    }
  }

  /** Appends every waiting record now, then fsyncs (in the background). */
  write(): void {
    if (this.fd === undefined || this.waiting.size === 0) return;
    const lines: string[] = [];
    for (const item of this.waiting) {
      lines.push(`${JSON.stringify(item)}\n`);
      this.held.add(item);
    }
    this.waiting.clear();
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
    fdatasync(fd, (err) => {
      this.syncing = false;
      if (err && this.fd !== undefined) this.fail(`cannot fsync the journal ${this.path}: ${err.message}`);
      if (this.dirty) this.sync();
    });
  }
}
