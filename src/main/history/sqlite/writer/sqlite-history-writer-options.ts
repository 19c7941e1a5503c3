// What the SQLite history writer (SqliteHistoryWriter) can be told (options) and what it tells (stats).
import type { RecorderStats } from '../../../../shared/trace/execution';
import type { Redactor } from '../../model/redaction/redactor';
import type { BackoffOptions } from '../../model/recording/retry-policy';

export interface SqliteHistoryWriterOptions {
  /** Longest a record waits in memory before its batch is written. Default 100 ms. */
  flushIntervalMs?: number;
  /** Records per transaction; a queue this long is written at once. Default 1000. */
  batchSize?: number;
  /** Memory bound of the queue; beyond it records spill to disk. Defaults: 64 MiB, 50,000 records. */
  maxQueueBytes?: number;
  maxQueueItems?: number;
  backoff?: Partial<BackoffOptions>;
  /**
   * How long flush() and close() keep retrying a busy, locked or full database before they make
   * the rest durable in the spill file instead. Default 5000 ms.
   */
  flushTimeoutMs?: number;
  /** Write on a worker thread (default) or on this thread. */
  writerThread?: boolean;
  /** How long the writing connection waits for another process's lock before a retry. */
  busyTimeoutMs?: number;
  /**
   * Items the writer thread writes before a thread of its own runs the WAL checkpoints (checkpointer.ts).
   * Default 20,000; Infinity never starts one. Only with writerThread.
   */
  checkpointerAfterItems?: number;
  /** Applied to every record before it is encoded: redaction at rest. */
  redactor?: Redactor;
  /**
   * Crash safety: also append records the database has not committed yet to a journal file next to
   * it, fsync'd in groups every journalIntervalMs (default 250); the next history writer on this database
   * replays a dead process's journal. Off by default (in-process tests, import).
   */
  journal?: boolean;
  journalIntervalMs?: number;
  /** Told about every failure (for a logger). */
  onError?: (message: string) => void;
  /** Told after each committed batch, so readers can refresh ("tables changed"). */
  onWritten?: (change: { executions: number; sessions: number; gateways: number; messages?: number }) => void;
}

export interface SqliteHistoryWriterStats extends RecorderStats {
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
  /** Records refused (not encodable, or invalid for the schema); those the database refused are kept in `deadLetterPath`. */
  rejected: number;
  /** Records that could be kept nowhere (the disk refused the spill file too). Should stay 0. */
  lost: number;
  /** Executions already in the database (same uuid), skipped. */
  duplicates: number;
  deadLetterPath: string;
  writer: 'worker' | 'in-thread';
}
