// An append-only JSONL file of encoded items that did not fit in memory (or could not be written
// when the history writer closed). Reads are tentative: the offset only advances once the items read are
// committed to the database, so a crash in between re-reads them (execution writes are idempotent
// by uuid, sessions and gateways are upserts).
import { closeSync, existsSync, openSync, readSync, statSync, unlinkSync } from 'node:fs';
import { appendPrivateFile } from '../../../files/private-files';
import type { QueueItem } from '../../model/encode/encoded';
import { fileLine } from '../../model/encode/deferred';

const WRITE_BUFFER_BYTES = 1 << 20;
const READ_CHUNK_BYTES = 1 << 20;

export interface SpillBatch {
  items: QueueItem[];
  endOffset: number;
  /** Lines that were not valid JSON (torn by a crash); skipped. */
  unreadable: number;
}

export class SpillFile {
  private buffer: string[] = [];
  private bufferBytes = 0;
  private readOffset = 0;
  /** Items appended (or found at adoption) and not yet committed to the database. */
  count = 0;

  /**
   * `sealed`: a file no one appends to any more (left by a process that died). Its last line may
   * have been torn by the crash; it is then counted, and reported, as unreadable.
   */
  constructor(
    readonly path: string,
    private readonly sealed = false,
  ) {
    if (existsSync(path)) {
      const { lines, partial } = countLines(path);
      this.count = lines + (sealed && partial ? 1 : 0);
    }
  }

  append(item: QueueItem): void {
    const line = fileLine(item);
    this.buffer.push(line);
    this.bufferBytes += line.length;
    this.count++;
    if (this.bufferBytes >= WRITE_BUFFER_BYTES) this.writeBuffer();
  }

  /** Writes buffered lines to the file. Throws (disk full...) with the lines still buffered. */
  writeBuffer(): void {
    if (this.buffer.length === 0) return;
    appendPrivateFile(this.path, this.buffer.join(''));
    this.buffer = [];
    this.bufferBytes = 0;
  }

  /** Lines buffered in memory that a failing disk would lose; the caller counts them if it gives up. */
  dropBuffer(): number {
    const n = this.buffer.length;
    this.buffer = [];
    this.bufferBytes = 0;
    this.count -= n;
    return n;
  }

  read(max: number): SpillBatch {
    this.writeBuffer();
    const items: QueueItem[] = [];
    let unreadable = 0;
    if (this.count === 0 || !existsSync(this.path)) return { items, endOffset: this.readOffset, unreadable };
    const fd = openSync(this.path, 'r');
    try {
      const chunk = Buffer.alloc(READ_CHUNK_BYTES);
      let pos = this.readOffset;
      let offset = this.readOffset;
      let carry = Buffer.alloc(0);
      while (items.length + unreadable < max) {
        const n = readSync(fd, chunk, 0, chunk.length, pos);
        if (n === 0) break;
        pos += n;
        // Lines are split on bytes, never inside a multi-byte character.
        const buf = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
        let start = 0;
        while (items.length + unreadable < max) {
          const nl = buf.indexOf(10, start);
          if (nl < 0) break;
          try {
            items.push(JSON.parse(buf.toString('utf8', start, nl)) as QueueItem);
          } catch {
            unreadable++; // a line torn by a crash mid-write: counted by the caller as lost
          }
          offset += nl + 1 - start;
          start = nl + 1;
        }
        carry = Buffer.from(buf.subarray(start));
      }
      if (this.sealed && carry.length > 0 && items.length + unreadable < max) {
        unreadable++; // the torn last line of a crashed writer
        offset += carry.length;
      }
      return { items, endOffset: offset, unreadable };
    } finally {
      closeSync(fd);
    }
  }

  /** The items of a read batch are in the database: move past them, and empty the file when done. */
  commit(batch: SpillBatch): void {
    this.readOffset = batch.endOffset;
    this.count -= batch.items.length + batch.unreadable;
    if (this.count <= 0 && this.buffer.length === 0) {
      this.count = 0;
      this.readOffset = 0;
      try {
        if (existsSync(this.path) && statSync(this.path).size <= batch.endOffset) unlinkSync(this.path);
      } catch {
        // Left in place: the next reader skips nothing, duplicates are ignored by uuid.
      }
    }
  }
}

function countLines(path: string): { lines: number; partial: boolean } {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(READ_CHUNK_BYTES);
    let lines = 0;
    let offset = 0;
    let last = 10;
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, offset);
      if (n === 0) break;
      for (let i = 0; i < n; i++) if (chunk[i] === 10) lines++;
      last = chunk[n - 1]!;
      offset += n;
    }
    return { lines, partial: last !== 10 };
  } finally {
    closeSync(fd);
  }
}
