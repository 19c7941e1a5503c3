// How many WAL frames wait for a checkpoint, read from the wal-index (`<db>-shm`) the way SQLite's own
// automatic checkpoint decides (after a commit, when the WAL holds wal_autocheckpoint frames or more), so
// that a checkpointer on another thread runs exactly as often as the writer's connection would have. The
// wal-index layout is part of SQLite's documented file format (https://www.sqlite.org/walformat.html, "The
// WAL-Index Header"): its first header copy holds mxFrame (the last valid frame) at byte 16, and the
// checkpoint information after both header copies holds nBackfill (frames already copied back) at byte 96;
// both are 32-bit in the host's byte order. The file is a shared mapping, so a read sees the current
// values; a read torn by a concurrent commit only moves one checkpoint by a commit.
import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

const MX_FRAME_OFFSET = 16;
const N_BACKFILL_OFFSET = 96;
const HEADER_BYTES = N_BACKFILL_OFFSET + 4;
const LITTLE = endianness() === 'LE';

export class WalFrames {
  private readonly buffer = Buffer.alloc(HEADER_BYTES);

  private constructor(private fd: number | undefined) {}

  /** The wal-index of the database at `dbPath`, or undefined when it cannot be read (no -shm: not WAL, or another VFS). */
  static open(dbPath: string): WalFrames | undefined {
    try {
      return new WalFrames(openSync(`${dbPath}-shm`, 'r'));
    } catch {
      return undefined;
    }
  }

  /** Frames written and not yet checkpointed, or undefined when the wal-index cannot be read now. */
  pending(): number | undefined {
    const wal = this.read();
    return wal && Math.max(0, wal.last - wal.copied);
  }

  /** The WAL's last valid frame (its length in frames) and how many of its frames are copied back, or undefined. */
  read(): { last: number; copied: number } | undefined {
    if (this.fd === undefined) return undefined;
    try {
      if (readSync(this.fd, this.buffer, 0, HEADER_BYTES, 0) < HEADER_BYTES) return undefined;
    } catch {
      return undefined;
    }
    const read = (at: number) => (LITTLE ? this.buffer.readUInt32LE(at) : this.buffer.readUInt32BE(at));
    return { last: read(MX_FRAME_OFFSET), copied: read(N_BACKFILL_OFFSET) };
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = undefined;
  }
}
