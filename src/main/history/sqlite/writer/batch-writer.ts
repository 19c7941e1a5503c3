// Where batches are written: on a worker thread with its own connection (so SQLite never blocks
// the gateway's event loop), or on this thread when no worker can be started.
import type { QueueItem } from '../../model/encode/encoded';
import { ExecutionInserter } from '../sql/inserter';
import type { Store } from '../open/open-store';
import { applyBatch, type BatchResult } from './apply-batch';

export interface BatchWriter {
  readonly mode: 'worker' | 'in-thread';
  /** Never rejects: a failure is a result with ok:false. */
  write(items: QueueItem[]): Promise<BatchResult>;
  /** Runs SQL on the writing connection (tests, e.g. PRAGMA max_page_count to simulate a full disk). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

export class InThreadBatchWriter implements BatchWriter {
  readonly mode = 'in-thread';
  private readonly inserter: ExecutionInserter;

  constructor(private readonly store: Store) {
    this.inserter = new ExecutionInserter(store.db);
  }

  async write(items: QueueItem[]): Promise<BatchResult> {
    return applyBatch(this.store.db, this.inserter, items);
  }

  async exec(sql: string): Promise<void> {
    this.store.db.exec(sql);
  }

  async close(): Promise<void> {}
}
