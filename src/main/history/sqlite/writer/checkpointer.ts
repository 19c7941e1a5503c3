// WAL checkpoints on a thread of their own, so that the writer thread never waits for them. A checkpoint
// copies the pages the WAL holds into the database file and fsyncs it; run by the writer's own connection
// (SQLite's automatic checkpoint, after the commit that crosses wal_autocheckpoint), it stalls the writer
// for the copy and the fsync. `bench store`'s bare inserter spent 16–21 µs per execution committing with
// automatic checkpoints and 10–11 µs with the checkpoints run by a second connection on another thread,
// whose copies then overlap the writer's next inserts (docs/history.md).
//
// The checkpointer is started by the writer thread once it has written enough to matter (a history that
// records a few calls never starts one), from the writer thread's own entry file. After each commit the
// writer reads how many frames wait in the WAL (wal-frames.ts) and, at WAL_AUTOCHECKPOINT_PAGES or more,
// asks for one PASSIVE checkpoint (it never blocks the writer or a reader): as often as SQLite's automatic
// checkpoint would have run, no more (a checkpointer on a timer checkpointed three times as often under a
// gateway's load, and cost ~20 µs of CPU per call). A WAL starts over from its first frame only when a
// writer begins a transaction with every frame copied back, which a checkpointer running beside a writer
// that never pauses (in bulk) never achieves: the WAL grew to 358 MB in 100,000 executions. So once it is
// WAL_RESTART_FACTOR times the checkpoint size, the writer runs one checkpoint itself, as before (it then
// copies only what the checkpointer has not, and its next transaction starts the WAL over; while a reader
// holds an old snapshot it checkpoints after every commit, as SQLite's automatic checkpoint does then).
// Only once the checkpointer has opened its connection does the writer turn its automatic checkpoints off;
// if the checkpointer fails or exits, the writer turns them on again (the WAL would otherwise only grow).
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { WorkerEntry } from '../../../processes/worker-entry';
import { openDatabase } from '../../../native/sqlite-binding';
import { WAL_AUTOCHECKPOINT_PAGES } from '../open/open-store';
import { lowerThisThreadPriority } from './thread-priority';
import { WalFrames } from './wal-frames';

export const CHECKPOINTER_KIND = 'interceptor-console-store-checkpointer';

/** WAL length, in checkpoint sizes, at which the writer checkpoints itself so that the WAL can start over. */
export const WAL_RESTART_FACTOR = 2;

/** Items the writer thread writes before it starts a checkpointer. */
export const CHECKPOINTER_AFTER_ITEMS = 20_000;

export interface CheckpointerData {
  kind: typeof CHECKPOINTER_KIND;
  path: string;
  /** The writer thread's channel: 'checkpoint' and 'close' arrive on it, 'ready', 'failed' and 'done' go back. */
  port: MessagePort;
}

/** What the checkpointer thread says: ready (connection open), failed with why, or done (a checkpoint asked for). */
export type CheckpointerMessage = { type: 'ready' } | { type: 'failed'; error: string } | { type: 'done' };

/** The checkpointer thread's body: a checkpoint for each 'checkpoint' message, the end on 'close'. */
export function serveCheckpointer(data: CheckpointerData): void {
  const port = data.port;
  let db: Database.Database;
  try {
    db = openDatabase(data.path, { fileMustExist: true });
    db.pragma('busy_timeout = 0');
  } catch (err) {
    port.postMessage({ type: 'failed', error: (err as Error).message } satisfies CheckpointerMessage);
    port.close();
    return;
  }
  lowerThisThreadPriority();
  port.on('message', (msg: 'checkpoint' | 'close') => {
    if (msg === 'close') {
      db.close();
      port.close();
      return;
    }
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Busy or locked: the writer asks again after a later commit.
    }
    port.postMessage({ type: 'done' } satisfies CheckpointerMessage);
  });
  port.postMessage({ type: 'ready' } satisfies CheckpointerMessage);
}

/**
 * The writer thread's side: starts the checkpointer once CHECKPOINTER_AFTER_ITEMS items are written, asks
 * it for a checkpoint when the WAL has grown enough, and switches the writer's automatic checkpoints off
 * while it runs. Its answers are read synchronously at each commit (receiveMessageOnPort): in bulk the
 * writer thread goes from batch to batch without returning to its event loop, where they would wait until
 * the writing stops.
 */
export class CheckpointerLink {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private frames: WalFrames | undefined;
  private running = false;
  private started = false;
  /** A checkpoint was asked for and is not done yet. */
  private asked = false;
  private written = 0;

  constructor(
    private readonly entry: WorkerEntry | undefined,
    private readonly path: string,
    private readonly writerDb: Database.Database,
    private readonly startAfterItems = CHECKPOINTER_AFTER_ITEMS,
    private readonly checkpointAtFrames = WAL_AUTOCHECKPOINT_PAGES,
  ) {}

  /** Whether a checkpointer runs the checkpoints now (tests). */
  get active(): boolean {
    return this.running;
  }

  /** After each committed batch of `items` items. */
  committed(items: number): void {
    this.written += items;
    if (this.port) {
      this.readAnswers();
      const wal = this.running ? this.frames?.read() : undefined;
      if (wal && wal.last >= this.checkpointAtFrames * WAL_RESTART_FACTOR) this.checkpointHere();
      else if (wal && !this.asked && wal.last - wal.copied >= this.checkpointAtFrames) {
        this.asked = true;
        this.port!.postMessage('checkpoint');
      }
    } else if (!this.started && this.entry && this.written >= this.startAfterItems) this.start(this.entry);
  }

  /** A PASSIVE checkpoint on the writer's connection (busy at once, and tried again later, while the checkpointer runs one). */
  private checkpointHere(): void {
    try {
      this.writerDb.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Tried again after the next commit.
    }
  }

  private readAnswers(): void {
    for (let m = this.port && receiveMessageOnPort(this.port); m; m = this.port && receiveMessageOnPort(this.port)) {
      const msg = m.message as CheckpointerMessage;
      if (msg.type === 'done') this.asked = false;
      else if (msg.type === 'ready') {
        this.running = true;
        this.writerDb.pragma('wal_autocheckpoint = 0');
      } else this.stop();
    }
  }

  private start(entry: WorkerEntry): void {
    this.started = true;
    this.frames = WalFrames.open(this.path);
    if (!this.frames) return; // nothing to tell when to checkpoint: the writer keeps doing it
    const { port1, port2 } = new MessageChannel();
    let worker: Worker;
    try {
      const workerData: CheckpointerData = { kind: CHECKPOINTER_KIND, path: this.path, port: port2 };
      worker = new Worker(entry.script, { eval: entry.eval, workerData, transferList: [port2], stdout: false, stderr: false });
    } catch {
      port1.close();
      this.frames.close();
      this.frames = undefined;
      return; // the writer keeps checkpointing itself
    }
    this.worker = worker;
    this.port = port1;
    worker.unref();
    port1.unref();
    worker.on('error', () => this.stop());
    worker.on('exit', () => this.stop());
  }

  /** The checkpointer failed or ended: the writer's connection checkpoints again. */
  private stop(): void {
    if (!this.worker) return;
    this.worker = undefined;
    this.port?.close();
    this.port = undefined;
    this.frames?.close();
    this.frames = undefined;
    this.running = false;
    this.asked = false;
    if (this.writerDb.open) this.writerDb.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  }

  /** Ends the checkpointer before the writer closes its connection (the last one to close checkpoints and removes the WAL). */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    this.port?.postMessage('close');
    const timer = setTimeout(() => void worker.terminate(), 2000);
    await exited;
    clearTimeout(timer);
  }
}
