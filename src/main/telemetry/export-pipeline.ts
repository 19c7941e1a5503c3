// The OpenTelemetry SDK side of the export: execution summaries in, spans through a BatchSpanProcessor and
// measurements through a PeriodicExportingMetricReader, both to OTLP/HTTP. Runs on the export thread
// (export-thread.ts), or on the gateway's thread when that thread cannot start.
import { setGlobalErrorHandler } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { hostname } from 'node:os';
import { ExecutionMetrics } from './execution-metrics';
import { executionSpans, type SpanContextOf } from './execution-spans';
import type { ExecutionSummary } from './execution-summary';
import type { TelemetryOptions } from './options';
import { SpanIds } from './traceparent';

export class ExportPipeline {
  private readonly spans: BatchSpanProcessor;
  private readonly meters: MeterProvider;
  private readonly metrics: ExecutionMetrics;
  private readonly context: SpanContextOf;

  /** `onError`: export failures (endpoint down, HTTP errors, timeouts), which the SDK reports through its global handler. */
  constructor(
    private readonly options: TelemetryOptions,
    onError: (message: string) => void,
  ) {
    const resource = resourceFromAttributes({
      [ATTR_SERVICE_NAME]: options.serviceName,
      [ATTR_SERVICE_VERSION]: options.serviceVersion,
      'host.name': hostname(),
      'service.instance.id': `${hostname()}:${process.pid}`,
    });
    this.context = { resource, scope: { name: 'interceptor-console/gateway', version: options.serviceVersion }, ids: new SpanIds() };
    const { headers, timeoutMs } = options;
    this.spans = new BatchSpanProcessor({
      exporter: new OTLPTraceExporter({ url: `${options.endpoint}/v1/traces`, headers, timeoutMillis: timeoutMs }),
      maxQueueSize: options.maxQueue,
      maxExportBatchSize: options.maxExportBatch,
      scheduledDelayMillis: options.spanDelayMs,
      exportTimeoutMillis: timeoutMs,
    });
    const reader = new PeriodicExportingMetricReader({
      exporter: new OTLPMetricExporter({ url: `${options.endpoint}/v1/metrics`, headers, timeoutMillis: timeoutMs }),
      exportIntervalMillis: options.metricIntervalMs,
      exportTimeoutMillis: Math.min(timeoutMs, options.metricIntervalMs),
    });
    this.meters = new MeterProvider({ resource, readers: [reader] });
    this.metrics = new ExecutionMetrics(this.meters.getMeter('interceptor-console/gateway', options.serviceVersion));
    setGlobalErrorHandler((err) => onError(err instanceof Error ? err.message : String(err)));
  }

  add(batch: ExecutionSummary[]): void {
    for (const x of batch) {
      for (const s of executionSpans(x, this.context)) this.spans.onEnd(s);
      this.metrics.record(x);
    }
  }

  /** Exports what is queued, bounded by the export timeout: a dead endpoint does not hold up a stop. */
  async shutdown(): Promise<void> {
    const deadline = new Promise<void>((done) => setTimeout(done, this.options.timeoutMs + 500).unref());
    await Promise.race([Promise.allSettled([this.spans.shutdown(), this.meters.shutdown()]), deadline]);
  }
}
