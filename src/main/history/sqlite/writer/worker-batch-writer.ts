// Writes batches on a worker thread. SQLite calls are synchronous: on the gateway's thread a
// 1,000-record transaction would stall traffic for tens of milliseconds, on its own thread it only
// uses the spare core. If the thread cannot be started (no entry file next to this bundle, a
// loader missing), writing falls back to this thread and the reason is reported once.
import type { Worker } from 'node:worker_threads';
import type { QueueItem } from '../../model/encode/encoded';
import type { BatchResult } from './apply-batch';
import type { BatchWriter } from './batch-writer';
import { WRITER_THREAD_KIND, type WriterRequest, type WriterResponse, type WriterThreadData } from './writer-protocol';
import { startWriterThread } from '../../model/recording/writer-thread-start';
import { resolveWorkerEntry, type WorkerEntry } from '../../../processes/worker-entry';

/** The writer thread's entry: `store-writer.js` beside a bundle, or in a source checkout its TypeScript module (worker-entry.ts). */
export function writerThreadEntry(): WorkerEntry | undefined {
  return resolveWorkerEntry(import.meta.url, './writer-thread.ts', 'store-writer.js');
}

type Pending = { resolve: (res: WriterResponse) => void };
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export class WorkerBatchWriter implements BatchWriter {
  private worker: Worker | undefined;
  private ready: Promise<boolean> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private fallback: BatchWriter | undefined;

  constructor(
    private readonly entry: WorkerEntry,
    private readonly data: Omit<WriterThreadData, 'kind'>,
    private readonly makeFallback: () => BatchWriter,
    private readonly onFallback: (reason: string) => void,
  ) {
    this.start();
  }

  get mode(): 'worker' | 'in-thread' {
    return this.fallback ? 'in-thread' : 'worker';
  }

  private start(): Promise<boolean> {
    const { worker, ready } = startWriterThread<WriterResponse>(this.entry, { kind: WRITER_THREAD_KIND, ...this.data } satisfies WriterThreadData, {
      idle: () => this.pending.size === 0,
      failedToStart: (reason) => {
        this.worker = undefined;
        this.fallback = this.makeFallback();
        this.onFallback(`the writer thread could not start (${reason}); writing on the main thread`);
      },
      message: (msg) => {
        if (msg.type !== 'done' && msg.type !== 'error') return;
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        p?.resolve(msg);
      },
      exit: (code) => {
        if (this.worker === worker) this.worker = undefined;
        // Batches in flight are not lost: they are reported failed and retried by the history writer.
        for (const [id, p] of this.pending) p.resolve({ type: 'error', id, error: `the writer thread exited (code ${code})` });
        this.pending.clear();
      },
    });
    this.worker = worker;
    this.ready = ready;
    return ready;
  }

  private async request(req: DistributiveOmit<WriterRequest, 'id'>): Promise<WriterResponse> {
    if (!this.worker && !this.fallback) await this.start(); // the thread died: start another
    const ok = await this.ready;
    if (!ok || !this.worker) return { type: 'error', id: 0, error: 'the writer thread is not running' };
    const id = this.nextId++;
    const worker = this.worker;
    return new Promise<WriterResponse>((resolve) => {
      this.pending.set(id, { resolve });
      worker.ref(); // a request in flight keeps the process alive until it is answered
      worker.postMessage({ ...req, id } as WriterRequest);
    }).finally(() => {
      if (this.pending.size === 0) worker.unref();
    });
  }

  async write(items: QueueItem[]): Promise<BatchResult> {
    await this.ready;
    if (this.fallback) return this.fallback.write(items);
    const res = await this.request({ op: 'write', items });
    if (res.type === 'done' && res.result) return res.result;
    return { ok: false, error: res.type === 'error' ? res.error : 'unexpected answer from the writer thread' };
  }

  async exec(sql: string): Promise<void> {
    await this.ready;
    if (this.fallback) return this.fallback.exec(sql);
    const res = await this.request({ op: 'exec', sql });
    if (res.type === 'error') throw new Error(res.error);
  }

  async close(): Promise<void> {
    await this.ready;
    if (this.fallback) return this.fallback.close();
    if (!this.worker) return;
    const worker = this.worker;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    await this.request({ op: 'close' });
    worker.ref(); // keep the process alive until the thread has closed its connection and exited
    await new Promise<void>((resolve) => {
      void exited.then(resolve);
      setTimeout(() => void worker.terminate(), 2000).unref();
    });
  }
}
