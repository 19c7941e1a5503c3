// request-logger (C# InterceptorServerSample / TS examples): a sink on every event and both phases
// that writes one line per call to stderr (never stdout: that carries JSON-RPC on stdio).
import { sink, type InterceptorRegistration } from '../host/types';
import { applyOverrides, jsonText, type SampleOverrides } from './common';

export interface RequestLoggerOptions extends SampleOverrides {
  /** Where lines go; default process.stderr. */
  log?: (line: string) => void;
}

export function requestLogger(options: RequestLoggerOptions = {}): InterceptorRegistration {
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
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
