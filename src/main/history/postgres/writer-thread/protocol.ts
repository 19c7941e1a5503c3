// Messages between a PostgreSQL recorder and its writer thread (pg-writer-thread.ts).
import type { BatchResult, PgItem } from '../batch-insert';

export const PG_WRITER_THREAD_KIND = 'interceptor-console-pg-writer';

export interface PgWriterThreadData {
  kind: typeof PG_WRITER_THREAD_KIND;
  /** The connection string (with its password: it stays in this process). */
  url: string;
  /** Connections of the thread's pool: one per batch in flight. */
  max: number;
  /** The host name recorded with the gateway rows. */
  host: string;
}

export type PgWriterRequest = { op: 'write'; id: number; items: readonly PgItem[] } | { op: 'close'; id: number };

/** A failed batch: what isPgTransient and describePgError read of the error, rebuilt on the other side. */
export interface PgWriterError {
  message: string;
  code?: string;
}

export type PgWriterResponse =
  | { type: 'ready' }
  | { type: 'failed'; error: string }
  | { type: 'done'; id: number; result?: BatchResult }
  | { type: 'error'; id: number; error: PgWriterError };

export function toWireError(err: unknown): PgWriterError {
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  return typeof code === 'string' ? { message, code } : { message };
}

/** The error as the recorder's retry logic reads it: a message, and the SQLSTATE or system code when there was one. */
export function fromWireError(error: PgWriterError): Error {
  const err = new Error(error.message) as Error & { code?: string };
  if (error.code !== undefined) err.code = error.code;
  return err;
}
