// The writer thread yields the CPU to traffic. On a machine where client, gateway and backend
// share a few cores, the thread that writes history competes with the hop chain of every call;
// at a lower priority it still gets every idle cycle, but never ahead of serving a request.
// Linux only: there a thread has its own nice value (setpriority on its thread id, found through
// /proc/thread-self). Elsewhere this is a no-op, and so is any failure: it is an optimisation.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Nice value of the writer thread (0 = normal, 19 = lowest). */
export const WRITER_THREAD_NICE = 10;

/** Lowers the calling thread's priority; returns whether it did. */
export function lowerThisThreadPriority(nice = WRITER_THREAD_NICE): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0 || tid === process.pid) return false; // never renice the whole process
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
