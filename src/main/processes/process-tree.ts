// Child processes the gateway starts (backends, interceptor servers) get their own process group on POSIX, and
// are stopped by signalling the whole group: a wrapper (`sh -c '…; …'`, a launcher script) that dies on SIGTERM
// would otherwise leave the real server running, orphaned. Windows has no process groups: the child alone.
//
// The group outlives its leader: when the wrapper dies of SIGTERM and the server it started ignores SIGTERM,
// only a SIGKILL to the group ends the server, though the child we spawned has exited. So a stop signals the
// group even then, while a process of it still runs (stopGroup). That is safe within a stop's few seconds: Linux never
// hands out a process id again while a process group of that id has members, and once the group is empty the
// signal finds nobody (ESRCH), unless the id was taken meanwhile by a new process that made itself a group
// leader, which needs the whole pid space to wrap around in those seconds.
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

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

/**
 * SIGTERM now, SIGKILL after `graceMs` if the process is still there (a busy loop that handles SIGTERM
 * never gets to it). Sent to the process's group (its own, spawned with OWN_PROCESS_GROUP): behind a wrapper
 * (`sh -c`) the server is the wrapper's child, and the wrapper's pid alone would leave it running.
 */
export function terminateGroup(pid: number, graceMs: number): void {
  const target = OWN_PROCESS_GROUP ? -pid : pid;
  try {
    process.kill(target, 'SIGTERM');
  } catch {
    return; // already gone
  }
  const timer = setTimeout(() => {
    try {
      process.kill(target, 0);
      process.kill(target, 'SIGKILL');
    } catch {
      // exited within the grace period
    }
  }, graceMs);
  timer.unref();
}

/**
 * Whether a process of the child's group still runs (zombies, which only wait to be reaped, do not count on
 * Linux, where /proc tells them apart; elsewhere any member counts). False without process groups.
 */
export function groupRunning(child: ChildProcess): boolean {
  const pgid = child.pid;
  if (!OWN_PROCESS_GROUP || pgid === undefined) return false;
  try {
    process.kill(-pgid, 0); // no member at all (the common case) answers ESRCH without reading /proc
  } catch {
    return false;
  }
  return process.platform === 'linux' ? linuxGroupRunning(pgid) : true;
}

function linuxGroupRunning(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true; // cannot tell: the group answered a signal
  }
  for (const entry of entries) {
    const c = entry.charCodeAt(0);
    if (c < 48 || c > 57) continue; // not a process id
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // After the command's closing parenthesis: state, ppid, pgrp, …
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 3);
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}

/** Signals what runs of the child's group: the child, or after its exit, what it started (see the file comment). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.exitCode === null && child.signalCode === null) killTree(child, signal);
  else if (groupRunning(child)) {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group emptied meanwhile.
    }
  }
}

/** Resolves when the child has exited (at once if it has, or never started: no pid, no exit to wait for). */
export function childExited(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** How long stopGroup waits, after its SIGKILL, for the group to be gone. */
const KILLED_WAIT_MS = 2_000;

/**
 * Stops a child and its group: SIGTERM, then, after `graceMs`, SIGKILL to whatever of the group still runs.
 * Resolves once the child has exited (`exited`) and the rest of its group has ended or been killed.
 */
export async function stopGroup(child: ChildProcess, exited: Promise<void>, graceMs: number): Promise<void> {
  if (child.pid === undefined) return; // it never started
  const deadline = Date.now() + graceMs;
  signalGroup(child, 'SIGTERM');
  const kill = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  try {
    await exited;
    // The child may have been a wrapper: what it started can still be running (and ignoring SIGTERM).
    while (groupRunning(child)) {
      const left = deadline - Date.now();
      if (left <= 0) {
        signalGroup(child, 'SIGKILL');
        // A SIGKILL takes effect when the process next runs, which on a busy machine is not at once: the
        // caller is told the group has ended only once it has (bounded: a process stuck in the kernel can
        // outlast any signal).
        const killedBy = Date.now() + KILLED_WAIT_MS;
        while (groupRunning(child) && Date.now() < killedBy) await new Promise((resolve) => setTimeout(resolve, 10));
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(25, left)));
    }
  } finally {
    clearTimeout(kill);
  }
}
