// When and where a gateway exports OpenTelemetry data: `--otlp-endpoint URL` or OTEL_EXPORTER_OTLP_ENDPOINT
// (the OTLP/HTTP base URL; /v1/traces and /v1/metrics are appended, as the OTLP spec says for that variable).
// Neither set: no export, and no OpenTelemetry code runs at all. The other knobs are the SDK's usual variables.
import { z } from 'zod';

export interface TelemetryOptions {
  endpoint: string;
  headers: Record<string, string>;
  serviceName: string;
  serviceVersion: string;
  /** Most spans waiting for export; past it the SDK drops (bounded memory when the endpoint is down). */
  maxQueue: number;
  /** Most spans in one OTLP request (at most maxQueue). */
  maxExportBatch: number;
  spanDelayMs: number;
  metricIntervalMs: number;
  timeoutMs: number;
}

const endpointSchema = z
  .string()
  .trim()
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http:// or https:// URL');
const positiveInt = z.coerce.number().int().positive();

function envInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const parsed = positiveInt.safeParse(raw);
  if (!parsed.success) throw new Error(`${name} must be a positive integer (milliseconds or a count), got "${raw}"`);
  return parsed.data;
}

/** `key=value,key2=value2` (OTEL_EXPORTER_OTLP_HEADERS), values URL-decoded. */
function parseHeaders(raw: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    headers[pair.slice(0, eq).trim()] = decodeURIComponent(pair.slice(eq + 1).trim());
  }
  return headers;
}

/** The export settings, or null when export is off. Throws a message that says what to fix. */
export function resolveTelemetryOptions(flag: string | undefined, env: NodeJS.ProcessEnv, serviceVersion: string): TelemetryOptions | null {
  const raw = flag ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (raw === undefined || raw.trim() === '') return null;
  const parsed = endpointSchema.safeParse(raw);
  const source = flag !== undefined ? '--otlp-endpoint' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  if (!parsed.success) throw new Error(`${source} "${raw}" is not a usable OTLP/HTTP endpoint: give the collector's base URL, e.g. http://127.0.0.1:4318`);
  const maxQueue = envInt(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048);
  return {
    endpoint: parsed.data.replace(/\/+$/, ''),
    headers: parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'interceptor-console-gateway',
    serviceVersion,
    maxQueue,
    // 1024, not the SDK's 512: at gateway rates a request then carries a whole drain (about 7 spans per call),
    // so the thread sends one request a second instead of several (each costs a wake-up, a socket write, a reply).
    maxExportBatch: Math.min(maxQueue, envInt(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 1024)),
    spanDelayMs: envInt(env, 'OTEL_BSP_SCHEDULE_DELAY', 1000),
    metricIntervalMs: envInt(env, 'OTEL_METRIC_EXPORT_INTERVAL', 15_000),
    timeoutMs: envInt(env, 'OTEL_EXPORTER_OTLP_TIMEOUT', 5000),
  };
}
