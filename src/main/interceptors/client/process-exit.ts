// How a stdio interceptor server's process ended, so that a crash can be named (exit code or signal,
// the end of its stderr) in the errors of the invocations it was running and of the calls that arrive
// while it restarts. The SDK's StdioClientTransport keeps its ChildProcess private and reports only
// "Connection closed"; its start() is wrapped here to hold on to the child and read how it exited.
import type { ChildProcess } from 'node:child_process';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { InvokeError } from '../server-handle';

export interface ProcessExit {
  pid: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Returns a reader of the child's exit, known once the process has exited (undefined before). */
export function watchProcessExit(transport: StdioClientTransport): () => ProcessExit | undefined {
  let child: ChildProcess | undefined;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    const started = start();
    // The SDK assigns its private `_process` synchronously inside start(); a later SDK that renames it
    // only costs the exit details (the crash is still reported, without code or signal).
    const candidate = (transport as unknown as { _process?: unknown })._process;
    if (candidate && typeof candidate === 'object' && 'exitCode' in candidate && 'signalCode' in candidate) child = candidate as ChildProcess;
    return started;
  };
  return () => {
    if (!child || (child.exitCode === null && child.signalCode === null)) return undefined;
    return { pid: child.pid, code: child.exitCode, signal: child.signalCode };
  };
}

/** "its process (pid 123) was killed by SIGKILL" / "… exited with code 9". */
export function describeExit(exit: ProcessExit | undefined): string {
  if (!exit) return 'its connection closed';
  const who = exit.pid !== undefined ? `its process (pid ${exit.pid})` : 'its process';
  return exit.signal ? `${who} was killed by ${exit.signal}` : `${who} exited with code ${exit.code}`;
}

/** The last few lines of a stderr tail, on one line. */
export function stderrEnding(tail: string | undefined, lines = 3): string | undefined {
  const text = tail?.trim();
  return text ? text.split('\n').slice(-lines).join(' | ') : undefined;
}

/** The error of an invoke whose server process died under it (not one the client closed on purpose: a health restart). */
export function crashOf(
  conn: { exit?: () => ProcessExit | undefined; closedBecause?: string; endedBecause?: string },
  interceptor: string,
  server: string,
): InvokeError | undefined {
  if (!conn.exit || conn.endedBecause === undefined || conn.closedBecause !== undefined || !conn.exit()) return undefined;
  return new InvokeError('crash', `interceptor server '${server}' crashed while '${interceptor}' was running: ${conn.endedBecause}`, undefined, {
    reason: 'server crashed',
  });
}
