// request-logger (C# InterceptorServerSample / TS examples): a sink on every event and both phases
// that writes one line per call to stderr (never stdout: that carries JSON-RPC on stdio).
import { sink, type InterceptorRegistration } from '../host/types';
import { applyOverrides, jsonText, type SampleOverrides } from './common';

export interface RequestLoggerOptions extends SampleOverrides {
  /** Where lines go; default process.stderr. */
  log?: (line: string) => void;
}

/**
 * The default log: lines made during one event-loop turn go to stderr together at its end (setImmediate),
 * after the turn's answers. A gateway reads its servers' stderr: one line per sink call used to wake it
 * twice per tools/call, each time before the answer it was waiting for. Lines still pending when the
 * process exits are written then.
 */
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
  if (pendingLines.length === 0) setImmediate(flushLines);
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
