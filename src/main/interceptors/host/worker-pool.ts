// Runs handlers of an InterceptorHost on worker threads, so that one call's CPU-heavy work queues
// per call, not per process: while a worker chews on a 4 MB payload, the host's own thread keeps
// answering other calls and `ping`, and a call that is cancelled or times out is stopped for real
// (its worker is terminated and replaced), not left running to its end.
import { setMaxListeners } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { WorkerEntry } from '../../processes/worker-entry';
import { HANDLER_WORKER_KIND, type HandlerCall, type HandlerResponse } from './worker-protocol';

/** A file to run, or (source checkouts under tsx/vitest) a CommonJS bootstrap to evaluate (resolveWorkerEntry finds it). */
export type HandlerWorkerEntry = WorkerEntry;

/** What the host asks of an offload: whether it takes a call, and to run it until the signal fires. */
export interface HandlerOffload {
  /** Payloads smaller than this (bytes of their JSON) are never accepted: callers may skip measuring them. */
  readonly minPayloadBytes?: number;
  accepts(name: string, payloadBytes: number): boolean;
  run(call: HandlerCall, signal: AbortSignal): Promise<unknown>;
  close(): Promise<void>;
}

export interface WorkerPoolOptions {
  entry: HandlerWorkerEntry;
  /** Interceptors whose handlers the worker serves (stateless ones: each worker has its own copy). */
  names: readonly string[];
  /** Most workers at once; more calls queue. Default 4. */
  size?: number;
  /** Smaller payloads run on the host's thread: a worker hop costs more than they do. Default 32 KB. */
  minPayloadBytes?: number;
  /** Start one worker at once (default true). */
  prestart?: boolean;
}

interface Task {
  id: number;
  call: HandlerCall;
  signal: AbortSignal;
  resolve(value: unknown): void;
  reject(err: unknown): void;
  onAbort(): void;
  worker?: Worker;
}

export class WorkerHandlerPool implements HandlerOffload {
  private readonly names: ReadonlySet<string>;
  private readonly size: number;
  readonly minPayloadBytes: number;
  private readonly idle: Worker[] = [];
  private readonly running = new Map<Worker, Task>();
  private readonly queue: Task[] = [];
  private live = 0;
  private nextId = 1;
  private closed = false;
  /** Workers terminated because their call was cancelled or timed out. */
  terminated = 0;

  constructor(private readonly options: WorkerPoolOptions) {
    this.names = new Set(options.names);
    this.size = Math.max(1, options.size ?? 4);
    this.minPayloadBytes = options.minPayloadBytes ?? 32 * 1024;
    // One worker ready from the start: loading the handlers' code takes a few hundred ms, which the
    // first large call should not pay. Idle workers never keep the process alive.
    if (options.prestart !== false) {
      const worker = this.spawn();
      worker.unref();
      this.idle.push(worker);
    }
  }

  accepts(name: string, payloadBytes: number): boolean {
    return !this.closed && payloadBytes >= this.minPayloadBytes && this.names.has(name);
  }

  /** Calls running on a worker, calls waiting for one, and live workers. */
  stats(): { running: number; queued: number; workers: number; terminated: number } {
    return { running: this.running.size, queued: this.queue.length, workers: this.live, terminated: this.terminated };
  }

  run(call: HandlerCall, signal: AbortSignal): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the handler worker pool is closed'));
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<unknown>((resolve, reject) => {
      const task: Task = { id: this.nextId++, call, signal, resolve, reject, onAbort: () => this.abort(task) };
      setMaxListeners(0, signal);
      signal.addEventListener('abort', task.onAbort, { once: true });
      this.queue.push(task);
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('the interceptor host is closing');
    for (const t of this.queue.splice(0)) this.settle(t, () => t.reject(error));
    for (const [worker, t] of this.running) {
      this.settle(t, () => t.reject(error));
      void worker.terminate();
    }
    this.running.clear();
    await Promise.all(this.idle.splice(0).map((w) => w.terminate()));
    this.live = 0;
  }

  private pump(): void {
    while (this.queue.length > 0 && (this.idle.length > 0 || this.live < this.size)) {
      const worker = this.idle.pop() ?? this.spawn();
      const task = this.queue.shift()!;
      task.worker = worker;
      this.running.set(worker, task);
      worker.ref(); // a call in flight keeps the process alive until it is answered
      worker.postMessage({ ...task.call, id: task.id });
    }
  }

  private spawn(): Worker {
    const worker = new Worker(this.options.entry.script, {
      eval: this.options.entry.eval,
      workerData: { kind: HANDLER_WORKER_KIND },
      stdout: false,
      stderr: false,
    });
    this.live++;
    worker.on('message', (res: HandlerResponse) => {
      const task = this.running.get(worker);
      if (!task || task.id !== res.id) return;
      this.running.delete(worker);
      this.settle(task, () => {
        if (!res.ok) task.reject(new Error(res.error));
        else if (res.samePayload) task.resolve({ ...(res.value as object), payload: task.call.payload });
        else task.resolve(res.value);
      });
      worker.unref();
      this.idle.push(worker);
      this.pump();
    });
    const lost = (reason: string) => {
      const idleAt = this.idle.indexOf(worker);
      if (idleAt >= 0) this.idle.splice(idleAt, 1);
      const task = this.running.get(worker);
      if (!task && idleAt < 0) return; // already accounted for (terminated on purpose)
      this.running.delete(worker);
      this.live--;
      if (task) this.settle(task, () => task.reject(new Error(`the handler worker ${reason}`)));
      this.pump();
    };
    worker.on('error', (err) => lost(`failed: ${err.message}`));
    worker.on('exit', (code) => lost(`exited with code ${code}`));
    return worker;
  }

  /** Cancellation or deadline: a queued call is dropped, a running one ends with its worker. */
  private abort(task: Task): void {
    const queued = this.queue.indexOf(task);
    if (queued >= 0) this.queue.splice(queued, 1);
    const worker = task.worker;
    if (worker && this.running.get(worker) === task) {
      this.running.delete(worker);
      this.live--;
      this.terminated++;
      void worker.terminate();
    }
    this.settle(task, () => task.reject(task.signal.reason));
    this.pump();
  }

  private settle(task: Task, finish: () => void): void {
    task.signal.removeEventListener('abort', task.onAbort);
    finish();
  }
}
