// Gateway metrics from recorded executions: calls, blocked, errors and latency per gateway and method, and
// invocations and latency per interceptor. Instrument names follow the `mcp.gateway.*` / `mcp.interceptor.*`
// attribute naming of execution-spans.ts; durations are histograms in milliseconds.
import type { Counter, Histogram, Meter } from '@opentelemetry/api';
import type { ExecutionSummary } from './execution-summary';
import { Attr } from './execution-spans';

export class ExecutionMetrics {
  private readonly calls: Counter;
  private readonly blocked: Counter;
  private readonly errors: Counter;
  private readonly duration: Histogram;
  private readonly invocations: Counter;
  private readonly stepDuration: Histogram;

  constructor(meter: Meter) {
    this.calls = meter.createCounter('mcp.gateway.calls', { description: 'Executions the gateway handled' });
    this.blocked = meter.createCounter('mcp.gateway.blocked', { description: 'Executions an interceptor blocked' });
    this.errors = meter.createCounter('mcp.gateway.errors', { description: 'Executions answered with an error' });
    this.duration = meter.createHistogram('mcp.gateway.duration', { description: 'Execution duration, chains and backend included', unit: 'ms' });
    this.invocations = meter.createCounter('mcp.interceptor.invocations', { description: 'Interceptor steps that ran, by outcome' });
    this.stepDuration = meter.createHistogram('mcp.interceptor.duration', { description: 'Interceptor step duration', unit: 'ms' });
  }

  record(r: ExecutionSummary): void {
    const attrs = { [Attr.gateway]: r.gateway, [Attr.method]: r.event };
    const withOutcome = { ...attrs, [Attr.outcome]: r.outcome };
    this.calls.add(1, withOutcome);
    this.duration.record(r.durationMs, withOutcome);
    if (r.outcome === 'blocked') this.blocked.add(1, { ...attrs, [Attr.interceptor]: r.blockedBy?.interceptor ?? 'unknown' });
    if (r.outcome === 'error') this.errors.add(1, attrs);
    for (const chain of r.chains) {
      for (const step of chain.steps) {
        const stepAttrs = { [Attr.gateway]: r.gateway, [Attr.interceptor]: step.id, [Attr.phase]: chain.phase };
        this.invocations.add(1, { ...stepAttrs, [Attr.stepOutcome]: step.outcome });
        this.stepDuration.record(step.durationMs, stepAttrs);
      }
    }
  }
}
