// Which database errors are worth retrying, and how long to wait between attempts.

/**
 * The database is busy, locked, full or failing I/O: wait and write the same batch again. Anything
 * else (a constraint, a record the encoder refuses, text that does not parse) is about one item.
 */
export function isTransient(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  if (code.startsWith('SQLITE_')) {
    return /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|PROTOCOL|NOMEM|READONLY|INTERRUPT|CORRUPT|NOTADB|NOLFS|AUTH)/.test(code);
  }
  return /^E[A-Z]+$/.test(code); // an OS error (EIO, ENOSPC...) while SQLite touched the file
}

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 50, maxMs: 5000 };

/** Exponential backoff with ±20% jitter, so two processes retrying do not collide in step. */
export function backoffDelay(failures: number, options: BackoffOptions = DEFAULT_BACKOFF): number {
  const raw = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(raw * (0.8 + Math.random() * 0.4));
}

export function describeError(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  const message = err instanceof Error ? err.message : String(err);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * What a refused write says. A file damaged while recording is retried like any failure (a restored file
 * is written to again), but waiting alone never mends it: the message says so, and what to do.
 */
export function pausedMessage(path: string, error: string): string {
  if (/SQLITE_(CORRUPT|NOTADB)/.test(error)) {
    return (
      `recording paused: ${path} is damaged (${error}). The records are kept (in memory, then in spill files beside it) ` +
      'and retried; stop, then restore the file from a backup or an export, or move it aside with its -wal and -shm files ' +
      'and start again: the kept records are written into the restored or new file.'
    );
  }
  return `recording paused, will retry: ${error}`;
}
