// Messages between the history writer and its writer thread.
import type { QueueItem } from '../../model/encode/encoded';
import type { BatchResult } from './apply-batch';

export const WRITER_THREAD_KIND = 'interceptor-console-store-writer';

export interface WriterThreadData {
  kind: typeof WRITER_THREAD_KIND;
  path: string;
  busyTimeoutMs: number;
  /** Items written before a checkpointer thread takes over the WAL checkpoints (checkpointer.ts); tests lower it. */
  checkpointerAfterItems?: number;
}

export type WriterRequest = { op: 'write'; id: number; items: QueueItem[] } | { op: 'exec'; id: number; sql: string } | { op: 'close'; id: number };

export type WriterResponse =
  { type: 'ready' } | { type: 'failed'; error: string } | { type: 'done'; id: number; result?: BatchResult } | { type: 'error'; id: number; error: string };
