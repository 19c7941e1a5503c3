// Child processes the gateway starts (backends, interceptor servers) get their own process group on POSIX, and
// are stopped by signalling the whole group: a wrapper (`sh -c '…; …'`, a launcher script) that dies on SIGTERM
// would otherwise leave the real server running, orphaned. Windows has no process groups: the child alone.
import type { ChildProcess } from 'node:child_process';

/** The `detached` spawn option that gives a child its own process group (POSIX only). */
export const OWN_PROCESS_GROUP = process.platform !== 'win32';

/** Sends `signal` to the child's process group (spawned with OWN_PROCESS_GROUP), else to the child. */
export function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    if (OWN_PROCESS_GROUP) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  }
}
