// OpenTelemetry export for a gateway: every recorded execution becomes a trace (execution-spans.ts) and feeds
// the metrics below, both sent over OTLP/HTTP by the official SDK (BatchSpanProcessor, PeriodicExporting-
// MetricReader). It sits beside the recorder: the gateway hands it the same records, it only queues them
// (bounded) and builds spans and measurements in a later tick, so the request path pays one array push.
// Export failures never reach traffic: they go to the log, rate-limited, and full queues drop (counted).
import { setGlobalErrorHandler } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { hostname } from 'node:os';
import type { ExecutionRecord, SessionRecord } from '../../shared/trace/execution';
import { executionSpans, exchangeTrace, type SpanContextOf } from './execution-spans';
import { ExecutionMetrics } from './execution-metrics';
import { newSpanId, withTraceParent } from './traceparent';
import type { TelemetryOptions } from './options';

/** What the gateway calls (GatewayOptions.telemetry): records in, and the traceparent the backend gets. */
export interface ExecutionTelemetry {
  recordSession(session: SessionRecord): void;
  recordExecution(execution: ExecutionRecord): void;
  /** The request params to forward to the backend, with `_meta.traceparent` naming the backend-call span. */
  propagate(executionId: string, received: unknown, forwarded: Record<string, unknown> | undefined): Record<string, unknown>;
}

const PENDING_MAX = 4096;
const SESSIONS_MAX = 10_000;
const DRAIN_DELAY_MS = 50;
const ERROR_LOG_INTERVAL_MS = 30_000;

export class OtelTelemetry implements ExecutionTelemetry {
  private readonly spans: BatchSpanProcessor;
  private readonly meters: MeterProvider;
  private readonly metrics: ExecutionMetrics;
  private readonly context: SpanContextOf;
  private readonly sessions = new Map<string, SessionRecord>();
  private pending: ExecutionRecord[] = [];
  private drainTimer: NodeJS.Timeout | undefined;
  private dropped = 0;
  private exportErrors = 0;
  private lastErrorLog = 0;
  private closed = false;

  constructor(
    private readonly options: TelemetryOptions,
    private readonly log: (line: string) => void,
  ) {
    const resource: Resource = resourceFromAttributes({
      [ATTR_SERVICE_NAME]: options.serviceName,
      [ATTR_SERVICE_VERSION]: options.serviceVersion,
      'host.name': hostname(),
      'service.instance.id': `${hostname()}:${process.pid}`,
    });
    this.context = { resource, scope: { name: 'interceptor-console/gateway', version: options.serviceVersion } };
    const headers = options.headers;
    this.spans = new BatchSpanProcessor({
      exporter: new OTLPTraceExporter({ url: `${options.endpoint}/v1/traces`, headers, timeoutMillis: options.timeoutMs }),
      maxQueueSize: options.maxQueue,
      scheduledDelayMillis: options.spanDelayMs,
      exportTimeoutMillis: options.timeoutMs,
    });
    const reader = new PeriodicExportingMetricReader({
      exporter: new OTLPMetricExporter({ url: `${options.endpoint}/v1/metrics`, headers, timeoutMillis: options.timeoutMs }),
      exportIntervalMillis: options.metricIntervalMs,
      exportTimeoutMillis: Math.min(options.timeoutMs, options.metricIntervalMs),
    });
    this.meters = new MeterProvider({ resource, readers: [reader] });
    this.metrics = new ExecutionMetrics(this.meters.getMeter('interceptor-console/gateway', options.serviceVersion));
    // The SDK reports export failures (endpoint down, HTTP errors, timeouts) through its global handler.
    setGlobalErrorHandler((err) => this.onExportError(err));
    log(`OpenTelemetry: exporting traces and metrics to ${options.endpoint} (OTLP/HTTP)`);
  }

  recordSession(session: SessionRecord): void {
    if (this.sessions.size >= SESSIONS_MAX) this.sessions.delete(this.sessions.keys().next().value!);
    this.sessions.set(session.id, session);
  }

  recordExecution(execution: ExecutionRecord): void {
    if (this.closed) return;
    if (this.pending.length >= PENDING_MAX) {
      this.dropped++;
      return;
    }
    this.pending.push(execution);
    if (!this.drainTimer) this.drainTimer = setTimeout(() => this.drain(), DRAIN_DELAY_MS).unref();
  }

  propagate(executionId: string, received: unknown, forwarded: Record<string, unknown> | undefined): Record<string, unknown> {
    const { traceId, parent } = exchangeTrace(executionId, received);
    return withTraceParent(forwarded, { traceId, spanId: newSpanId(), flags: parent?.flags ?? 1 });
  }

  stats(): { pending: number; dropped: number; exportErrors: number } {
    return { pending: this.pending.length, dropped: this.dropped, exportErrors: this.exportErrors };
  }

  /** Exports what is queued (bounded by the export timeout: a dead endpoint does not hold up a stop). */
  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.drain();
    this.closed = true;
    const deadline = new Promise<void>((done) => setTimeout(done, this.options.timeoutMs + 500).unref());
    await Promise.race([Promise.allSettled([this.spans.shutdown(), this.meters.shutdown()]), deadline]);
    if (this.dropped > 0) this.log(`OpenTelemetry: ${this.dropped} execution(s) were not exported (queue full)`);
  }

  private drain(): void {
    clearTimeout(this.drainTimer);
    this.drainTimer = undefined;
    const batch = this.pending;
    this.pending = [];
    for (const record of batch) {
      const session = record.sessionId ? this.sessions.get(record.sessionId) : undefined;
      for (const span of executionSpans(record, session, this.context)) this.spans.onEnd(span);
      this.metrics.record(record);
    }
  }

  private onExportError(err: unknown): void {
    this.exportErrors++;
    const now = Date.now();
    if (now - this.lastErrorLog < ERROR_LOG_INTERVAL_MS) return;
    this.lastErrorLog = now;
    const message = err instanceof Error ? err.message : String(err);
    this.log(`OpenTelemetry export to ${this.options.endpoint} failed (${this.exportErrors} so far; traffic is unaffected): ${message}`);
  }
}
