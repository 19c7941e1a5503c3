// The SQLite history writer's spill files: its own (records beyond the memory bound, and what is still
// queued when it closes) and those a dead process left on this database (its spill files and journals,
// adopted at open, spill-adoption.ts). Its own file is drained first: while it holds records, new records
// join it instead of the memory queue, so that they are written in the order they came. A file that cannot be
// written loses the lines still buffered for it; `onLost` is told how many, and why.
import type { QueueItem } from '../../model/encode/encoded';
import { describeError } from '../../model/recording/retry-policy';
import { adoptOrphanSpills, newSpillPath, releaseSpillPath } from '../../model/recording/spill-adoption';
import { SpillFile, type SpillBatch } from './spill-file';

/** A batch read from a spill file, and which file (committed through Spills.committed). */
export interface SpillRead {
  file: SpillFile;
  batch: SpillBatch;
  own: boolean;
}

export class Spills {
  private own: SpillFile | undefined;
  private readonly adopted: SpillFile[];

  constructor(
    private readonly dbPath: string,
    private readonly onLost: (count: number, message: string) => void,
  ) {
    this.adopted = adoptOrphanSpills(dbPath).map((p) => new SpillFile(p, true));
  }

  /** Records waiting in every spill file. */
  get count(): number {
    return this.ownCount + this.adopted.reduce((n, s) => n + s.count, 0);
  }

  /** Records waiting in this writer's own file. */
  get ownCount(): number {
    return this.own?.count ?? 0;
  }

  /** Whether an adopted file still holds records. */
  get adoptedPending(): boolean {
    return this.adopted.some((f) => f.count > 0);
  }

  /** Appends to the own file (made on first use); `now`: written at once, not when its buffer fills. */
  append(items: readonly QueueItem[], now: boolean): void {
    this.own ??= new SpillFile(newSpillPath(this.dbPath));
    try {
      for (const item of items) this.own.append(item);
      if (now) this.own.writeBuffer();
    } catch (err) {
      this.loseBuffer(err);
    }
  }

  /** The oldest records waiting, up to `max`: from the own file, else from an adopted one. Throws if unreadable. */
  read(max: number): SpillRead | undefined {
    const file = this.own && this.own.count > 0 ? this.own : this.adopted.find((s) => s.count > 0);
    if (!file) return undefined;
    try {
      return { file, batch: file.read(max), own: file === this.own };
    } catch (err) {
      throw new Error(`cannot read the spill file ${file.path}: ${describeError(err)}`, { cause: err });
    }
  }

  /** A batch read is in the database: its file moves past it; an adopted file drained is let go. */
  committed({ file, batch, own }: SpillRead): void {
    file.commit(batch);
    if (!own && file.count === 0) {
      this.adopted.splice(this.adopted.indexOf(file), 1);
      releaseSpillPath(file.path);
    }
  }

  /** The writer closes: the own file's buffer is written; what is left in any file waits for the next writer. */
  close(): void {
    if (this.own) {
      try {
        this.own.writeBuffer();
      } catch (err) {
        this.loseBuffer(err);
      }
      releaseSpillPath(this.own.path);
    }
    for (const file of this.adopted) releaseSpillPath(file.path);
  }

  private loseBuffer(err: unknown): void {
    const n = this.own?.dropBuffer() ?? 0;
    this.onLost(n, `${n} record(s) lost: the spill file ${this.own?.path} could not be written (${describeError(err)})`);
  }
}
