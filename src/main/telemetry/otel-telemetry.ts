// OpenTelemetry export for a gateway. It sits beside the recorder: the gateway hands it the same session and
// execution records; it keeps a payload-free summary of each in a bounded queue and every DRAIN_DELAY_MS
// posts the batch to the export thread, which builds the spans and metrics and sends them over OTLP/HTTP
// (export-pipeline.ts). The request path pays one small object and an array push. Export failures never reach
// traffic: they go to the log, rate-limited; full queues drop and count.
import { Worker } from 'node:worker_threads';
import { resolveWorkerEntry, type WorkerEntry } from '../processes/worker-entry';
import type { ExecutionRecord, SessionRecord } from '../../shared/trace/execution';
import { summarize, type ExecutionSummary } from './execution-summary';
import { ExportPipeline } from './export-pipeline';
import { EXPORT_THREAD_KIND, type ExportThreadData, type FromExportThread, type ToExportThread } from './export-protocol';
import type { TelemetryOptions } from './options';
import { SpanIds, traceIdOfExecution, traceParentOf, withTraceParent } from './traceparent';

/** What the gateway calls (GatewayOptions.telemetry): records in, and the traceparent the backend gets. */
export interface ExecutionTelemetry {
  recordSession(session: SessionRecord): void;
  recordExecution(execution: ExecutionRecord): void;
  /** The request params to forward to the backend, with `_meta.traceparent` naming the backend-call span. */
  propagate(executionId: string, received: unknown, forwarded: Record<string, unknown> | undefined): Record<string, unknown>;
}

/**
 * Summaries waiting for the next drain; past it they are dropped and counted (at 500 ms drains, more than
 * ~16,000 executions a second). Bounded here, on the gateway's side, because posting more often would hand the
 * export thread an unbounded message queue when it falls behind.
 */
export const PENDING_MAX = 8192;
const SESSIONS_MAX = 10_000;
/**
 * Every wake-up of the export thread costs far more than the work it brings at gateway rates: fed 100
 * executions a second, the pipeline spent ~150 µs of CPU per execution in 100 ms batches against ~80–110 µs in
 * 1 s batches and ~31 µs flat out (one thread, load ~9; issue #18). 500 ms keeps spans at the collector within
 * about 1.5 s (this delay plus the span processor's) while waking the thread twice a second.
 */
const DRAIN_DELAY_MS = 500;
const ERROR_LOG_INTERVAL_MS = 30_000;

export class OtelTelemetry implements ExecutionTelemetry {
  private worker: Worker | undefined;
  private inThread: ExportPipeline | undefined;
  private readonly sessions = new Map<string, SessionRecord>();
  /** Backend-call span ids from a random pool: a crypto call per 512 forwarded requests, not one per request. */
  private readonly spanIds = new SpanIds();
  private pending: ExecutionSummary[] = [];
  private drainTimer: NodeJS.Timeout | undefined;
  private dropped = 0;
  private exportErrors = 0;
  private lastErrorLog = 0;
  private closed = false;

  constructor(
    private readonly options: TelemetryOptions,
    private readonly log: (line: string) => void,
  ) {
    const entry = exportThreadEntry();
    if (entry) this.startThread(entry);
    else this.fallBack('no export thread entry beside this bundle');
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
    this.pending.push(summarize(execution, execution.sessionId ? this.sessions.get(execution.sessionId) : undefined));
    if (!this.drainTimer) this.drainTimer = setTimeout(() => this.drain(), DRAIN_DELAY_MS).unref();
  }

  propagate(executionId: string, received: unknown, forwarded: Record<string, unknown> | undefined): Record<string, unknown> {
    // The same choice as exchangeTrace() makes when the spans are built: the client's trace, else the execution id.
    const client = traceParentOf(received);
    const traceId = client?.traceId ?? traceIdOfExecution(executionId);
    return withTraceParent(forwarded, { traceId, spanId: this.spanIds.next(), flags: client?.flags ?? 1 });
  }

  stats(): { pending: number; dropped: number; exportErrors: number; thread: boolean } {
    return { pending: this.pending.length, dropped: this.dropped, exportErrors: this.exportErrors, thread: this.worker !== undefined };
  }

  /** Exports what is queued; bounded (the export timeout), so a dead endpoint does not hold up a stop. */
  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.drain();
    this.closed = true;
    const worker = this.worker;
    if (worker) {
      worker.ref();
      const closed = new Promise<void>((done) => {
        worker.on('message', (m: FromExportThread) => m.type === 'closed' && done());
        worker.once('exit', () => done());
      });
      const deadline = new Promise<void>((done) => setTimeout(done, this.options.timeoutMs + 1000).unref());
      worker.postMessage({ type: 'shutdown' } satisfies ToExportThread);
      await Promise.race([closed, deadline]);
      await worker.terminate();
    }
    await this.inThread?.shutdown();
    if (this.dropped > 0) this.log(`OpenTelemetry: ${this.dropped} execution(s) were not exported (queue full)`);
  }

  private drain(): void {
    clearTimeout(this.drainTimer);
    this.drainTimer = undefined;
    if (this.pending.length === 0) return;
    const items = this.pending;
    this.pending = [];
    if (this.worker) this.worker.postMessage({ type: 'batch', items } satisfies ToExportThread);
    else this.inThread?.add(items);
  }

  private startThread(entry: WorkerEntry): void {
    const worker = new Worker(entry.script, {
      eval: entry.eval,
      workerData: { kind: EXPORT_THREAD_KIND, options: this.options } satisfies ExportThreadData,
      stdout: false,
      stderr: false,
    });
    this.worker = worker;
    worker.unref(); // never keeps the process alive; shutdown() refs it for the final flush
    worker.on('message', (m: FromExportThread) => {
      if (m.type === 'error') this.onExportError(m.message);
    });
    worker.on('error', (err) => this.fallBack(`the export thread failed: ${err.message}`));
    worker.on('exit', (code) => {
      if (!this.closed) this.fallBack(`the export thread exited with code ${code}`);
    });
  }

  private fallBack(reason: string): void {
    if (this.inThread) return;
    this.worker = undefined;
    this.log(`OpenTelemetry: ${reason}; exporting on the gateway's thread`);
    this.inThread = new ExportPipeline(this.options, (message) => this.onExportError(message));
  }

  private onExportError(message: string): void {
    this.exportErrors++;
    const now = Date.now();
    if (now - this.lastErrorLog < ERROR_LOG_INTERVAL_MS) return;
    this.lastErrorLog = now;
    this.log(`OpenTelemetry export to ${this.options.endpoint} failed (${this.exportErrors} so far; traffic is unaffected): ${message}`);
  }
}

/** The export thread's entry: `otel-export.js` beside the CLI bundle, or in a source checkout its TypeScript module (worker-entry.ts). */
function exportThreadEntry(): WorkerEntry | undefined {
  return resolveWorkerEntry(import.meta.url, './export-thread.ts', 'otel-export.js');
}
