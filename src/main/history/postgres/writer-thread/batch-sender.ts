// Where a PostgreSQL recorder's batches are written: on a thread of its own (pg-writer-thread.ts) unless that
// cannot start. The driver's work for each batch (binding every value, the socket writes that wake the server,
// parsing its answers) and the encoding of each execution (deferred-execution.ts) ran on the gateway's thread,
// between the lines it forwards. Measured on 2 cores (a gateway recording to PostgreSQL on the same machine,
// sequential tools/call, the build before and this one in 6 interleaved rounds): that thread's CPU per call
// 174–238 µs before, 120–158 µs now (recording to SQLite: 110–116); p50 0.228–0.303 against 0.203–0.247 ms.
// The recorder keeps everything else (queue, send order, retries, journal) on its thread: only the write of a
// batch moves, and its failure comes back with the message and code the retry logic reads (isPgTransient).
// When the thread cannot be started (no entry beside the bundle, a loader missing), batches are written on
// the recorder's thread with the pool it opened, and the reason is reported once.
import type { Worker } from 'node:worker_threads';
import type pg from 'pg';
import { resolveWorkerEntry, type WorkerEntry } from '../../../processes/worker-entry';
import { IdCache, writeBatch, type BatchResult, type PgItem } from '../batch-insert';
import { startWriterThread } from '../../model/recording/writer-thread-start';
import { fromWireError, PG_WRITER_THREAD_KIND, type PgWriterRequest, type PgWriterResponse, type PgWriterThreadData } from './protocol';

export interface PgBatchSender {
  readonly mode: 'worker' | 'in-thread';
  /** Writes one batch in one transaction; rejects with the driver's error (or one with its message and code). */
  write(items: readonly PgItem[]): Promise<BatchResult>;
  /** Ends the thread and its pool (the recorder ends its own pool). */
  close(): Promise<void>;
}

/** Batches written on the calling thread, with the recorder's pool. */
export class InThreadPgSender implements PgBatchSender {
  readonly mode = 'in-thread' as const;
  private readonly cache = new IdCache();

  constructor(
    private readonly pool: pg.Pool,
    private readonly host: string,
  ) {}

  write(items: readonly PgItem[]): Promise<BatchResult> {
    return writeBatch(this.pool, items, this.host, this.cache);
  }

  async close(): Promise<void> {}
}

/**
 * The sender a recorder uses: its own thread when `url` is known and the thread's entry is found
 * (`writerThread: false` keeps the writes on the calling thread).
 */
export function pgBatchSender(
  pool: pg.Pool,
  host: string,
  connections: number,
  options: { url?: string; writerThread?: boolean },
  report: (message: string) => void,
): PgBatchSender {
  const inThread = () => new InThreadPgSender(pool, host);
  if (options.writerThread === false || !options.url) return inThread();
  const entry = resolveWorkerEntry(import.meta.url, './pg-writer-thread.ts', 'pg-writer.js');
  if (!entry) return inThread();
  return new WorkerPgSender(entry, { url: options.url, max: connections, host }, inThread, report);
}

type Pending = { resolve: (result: BatchResult | undefined) => void; reject: (err: Error) => void };

export class WorkerPgSender implements PgBatchSender {
  private worker: Worker | undefined;
  private ready: Promise<boolean>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private fallback: InThreadPgSender | undefined;
  private closed = false;

  constructor(
    private readonly entry: WorkerEntry,
    private readonly data: Omit<PgWriterThreadData, 'kind'>,
    private readonly makeFallback: () => InThreadPgSender,
    private readonly report: (message: string) => void,
  ) {
    this.ready = this.start();
  }

  get mode(): 'worker' | 'in-thread' {
    return this.fallback ? 'in-thread' : 'worker';
  }

  private start(): Promise<boolean> {
    const { worker, ready } = startWriterThread<PgWriterResponse>(this.entry, { kind: PG_WRITER_THREAD_KIND, ...this.data } satisfies PgWriterThreadData, {
      idle: () => this.pending.size === 0,
      failedToStart: (reason) => {
        this.worker = undefined;
        this.fallback = this.makeFallback();
        this.report(`the PostgreSQL writer thread could not start (${reason}); writing on the main thread`);
      },
      message: (msg) => {
        if (msg.type !== 'done' && msg.type !== 'error') return;
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.type === 'done') p?.resolve(msg.result);
        else p?.reject(fromWireError(msg.error));
      },
      exit: (code) => {
        if (this.worker === worker) this.worker = undefined;
        // Batches in flight are not lost: they fail like a dropped connection (no SQLSTATE: transient), and
        // the recorder writes them again, on a thread started anew.
        for (const p of this.pending.values()) p.reject(new Error(`the PostgreSQL writer thread exited (code ${code})`));
        this.pending.clear();
      },
    });
    this.worker = worker;
    return ready;
  }

  async write(items: readonly PgItem[]): Promise<BatchResult> {
    if (!this.worker && !this.fallback && !this.closed) this.ready = this.start();
    await this.ready;
    if (this.fallback) return this.fallback.write(items);
    const worker = this.worker;
    if (!worker) throw new Error('the PostgreSQL writer thread is not running');
    const id = this.nextId++;
    return new Promise<BatchResult>((resolve, reject) => {
      this.pending.set(id, { resolve: (result) => resolve(result ?? { inserted: 0, duplicates: 0 }), reject });
      worker.ref();
      worker.postMessage({ op: 'write', id, items } satisfies PgWriterRequest);
    }).finally(() => {
      if (this.pending.size === 0) worker.unref();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.ready;
    const worker = this.worker;
    if (this.fallback || !worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const id = this.nextId++;
    worker.ref(); // until the thread has ended its pool and exited
    worker.postMessage({ op: 'close', id } satisfies PgWriterRequest);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, 5000)))]);
    clearTimeout(timer);
    await worker.terminate().catch(() => {});
  }
}
