// request-logger (C# InterceptorServerSample / TS examples): a sink on every event and both phases
// that writes one line per call to stderr (never stdout: that carries JSON-RPC on stdio).
import { sink, type InterceptorRegistration } from '../host/types';
import { applyOverrides, jsonText, type SampleOverrides } from './common';

export interface RequestLoggerOptions extends SampleOverrides {
  /** Where lines go; default process.stderr. */
  log?: (line: string) => void;
}

/**
 * The default log: lines go to stderr together, at most LOG_HOLD_MS after the first of them, after the
 * answers made meanwhile (as buffered loggers do). A gateway reads its servers' stderr: one write per sink
 * call woke it twice per tools/call (a sink on both phases), and each wake-up costs both processes tens of
 * microseconds on a small virtual machine. Lines still pending when the process exits are written then.
 */
export const LOG_HOLD_MS = 20;
let pendingLines: string[] = [];
function flushLines(): void {
  if (pendingLines.length === 0) return;
  const text = pendingLines.join('');
  pendingLines = [];
  process.stderr.write(text);
}
let exitHooked = false;
export function stderrLine(line: string): void {
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', flushLines);
  }
  if (pendingLines.length === 0) setTimeout(flushLines, LOG_HOLD_MS);
  pendingLines.push(`${line}\n`);
}

export function requestLogger(options: RequestLoggerOptions = {}): InterceptorRegistration {
  const log = options.log ?? stderrLine;
  return applyOverrides(
    sink({
      name: 'request-logger',
      description: 'Logs event, phase, trace id and payload size of every intercepted message to stderr.',
      version: '1.0.0',
      events: ['*'],
      phase: 'both',
      handler: (payload, { event, phase, context }) => {
        const payloadBytes = Buffer.byteLength(jsonText(payload), 'utf8');
        log(`[request-logger] event=${event} phase=${phase} traceId=${context?.traceId ?? '-'} bytes=${payloadBytes}`);
        return { recorded: true, metrics: { payloadBytes } };
      },
    }),
    options,
  );
}
