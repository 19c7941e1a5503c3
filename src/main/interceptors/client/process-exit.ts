// How a stdio interceptor server's process ended, so that a crash can be named (exit code or signal,
// the end of its stderr) in the errors of the invocations it was running and of the calls that arrive
// while it restarts. The stdio transport (stdio-transport.ts) records how its child exited.
import { InvokeError } from '../server-handle';

export interface ProcessExit {
  pid: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
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
