// Messages between the gateway's thread (otel-telemetry.ts) and the export thread (export-thread.ts).
import type { ExecutionSummary } from './execution-summary';
import type { TelemetryOptions } from './options';

export const EXPORT_THREAD_KIND = 'interceptor-console-otel-export';

export interface ExportThreadData {
  kind: typeof EXPORT_THREAD_KIND;
  options: TelemetryOptions;
}

export type ToExportThread = { type: 'batch'; items: ExecutionSummary[] } | { type: 'shutdown' };
export type FromExportThread = { type: 'ready' } | { type: 'error'; message: string } | { type: 'closed' };
