// Starting a history writer thread (SQLite's store-writer, PostgreSQL's pg-writer): the thread says 'ready' once
// its connection is open, or 'failed' with why; an 'error' event, or an exit before either, also means it could
// not start (the caller then writes on its own thread). After the start, the thread's other messages and its
// exit go to the caller. A started thread that is idle never keeps the process alive: the caller refs it while
// a request is in flight.
import { Worker } from 'node:worker_threads';
import type { WorkerEntry } from '../../../processes/worker-entry';

export interface WriterThreadEvents<M> {
  /** A message other than 'ready' and 'failed'. */
  message(msg: M): void;
  /** The thread ended (after failedToStart, when it ended before its start). */
  exit(code: number): void;
  /** Called once, when the thread could not start; the thread is terminated. */
  failedToStart(reason: string): void;
  /** Nothing in flight: the thread is unref'd once started. */
  idle(): boolean;
}

export function startWriterThread<M extends { type: string }>(
  entry: WorkerEntry,
  workerData: unknown,
  on: WriterThreadEvents<M>,
): { worker: Worker; ready: Promise<boolean> } {
  const worker = new Worker(entry.script, { eval: entry.eval, workerData, stdout: false, stderr: false });
  const ready = new Promise<boolean>((resolve) => {
    let started = false;
    const failStart = (reason: string) => {
      if (started) return;
      started = true;
      void worker.terminate();
      on.failedToStart(reason);
      resolve(false);
    };
    worker.on('message', (msg: M | { type: 'ready' } | { type: 'failed'; error: string }) => {
      if (msg.type === 'ready') {
        started = true;
        if (on.idle()) worker.unref();
        resolve(true);
      } else if (msg.type === 'failed') failStart((msg as { error: string }).error);
      else on.message(msg as M);
    });
    worker.on('error', (err) => failStart(err.message));
    worker.on('exit', (code) => {
      failStart(`exited with code ${code}`);
      on.exit(code);
    });
  });
  return { worker, ready };
}
