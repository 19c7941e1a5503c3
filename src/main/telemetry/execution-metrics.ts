// Gateway metrics from recorded executions: calls, blocked, errors and latency per gateway and method, and
// invocations and latency per interceptor. Instrument names follow the `mcp.gateway.*` / `mcp.interceptor.*`
// attribute naming of execution-spans.ts; durations are histograms in milliseconds.
//
// The counters are observable: counted here in plain maps and read by the SDK only when it collects (every
// export interval). A synchronous SDK counter hashes its attribute set on every add (sorted keys, JSON), which
// was a tenth of the export thread's time per call (issue #18); the totals exported are the same monotonic sums.
import type { Attributes, Histogram, Meter, ObservableCounter } from '@opentelemetry/api';
import type { ExecutionSummary } from './execution-summary';
import { Attr } from './execution-spans';

/** Monotonic totals by attribute set, observed by the SDK at collection time. */
class Totals {
  private readonly byKey = new Map<string, { attributes: Attributes; value: number }>();

  /** `values` are the attribute values in `names` order; they identify the series. */
  add(names: readonly string[], values: readonly string[]): void {
    const key = values.join('\u0000');
    const total = this.byKey.get(key);
    if (total) {
      total.value++;
      return;
    }
    const attributes: Attributes = {};
    names.forEach((name, i) => (attributes[name] = values[i]));
    this.byKey.set(key, { attributes, value: 1 });
  }

  observeInto(counter: ObservableCounter): void {
    counter.addCallback((result) => {
      for (const { attributes, value } of this.byKey.values()) result.observe(value, attributes);
    });
  }
}

const CALL_ATTRS = [Attr.gateway, Attr.method, Attr.outcome] as const;
const ERROR_ATTRS = [Attr.gateway, Attr.method] as const;
const BLOCKED_ATTRS = [Attr.gateway, Attr.method, Attr.interceptor] as const;
const INVOCATION_ATTRS = [Attr.gateway, Attr.interceptor, Attr.phase, Attr.stepOutcome] as const;

export class ExecutionMetrics {
  private readonly calls = new Totals();
  private readonly blocked = new Totals();
  private readonly errors = new Totals();
  private readonly invocations = new Totals();
  private readonly duration: Histogram;
  private readonly stepDuration: Histogram;

  constructor(meter: Meter) {
    this.calls.observeInto(meter.createObservableCounter('mcp.gateway.calls', { description: 'Executions the gateway handled' }));
    this.blocked.observeInto(meter.createObservableCounter('mcp.gateway.blocked', { description: 'Executions an interceptor blocked' }));
    this.errors.observeInto(meter.createObservableCounter('mcp.gateway.errors', { description: 'Executions answered with an error' }));
    this.invocations.observeInto(meter.createObservableCounter('mcp.interceptor.invocations', { description: 'Interceptor steps that ran, by outcome' }));
    this.duration = meter.createHistogram('mcp.gateway.duration', { description: 'Execution duration, chains and backend included', unit: 'ms' });
    this.stepDuration = meter.createHistogram('mcp.interceptor.duration', { description: 'Interceptor step duration', unit: 'ms' });
  }

  record(r: ExecutionSummary): void {
    this.calls.add(CALL_ATTRS, [r.gateway, r.event, r.outcome]);
    this.duration.record(r.durationMs, { 'mcp.gateway.name': r.gateway, 'mcp.method.name': r.event, 'mcp.gateway.outcome': r.outcome });
    if (r.outcome === 'blocked') this.blocked.add(BLOCKED_ATTRS, [r.gateway, r.event, r.blockedBy?.interceptor ?? 'unknown']);
    if (r.outcome === 'error') this.errors.add(ERROR_ATTRS, [r.gateway, r.event]);
    for (const chain of r.chains) {
      for (const step of chain.steps) {
        this.invocations.add(INVOCATION_ATTRS, [r.gateway, step.id, chain.phase, step.outcome]);
        this.stepDuration.record(step.durationMs, { 'mcp.gateway.name': r.gateway, 'mcp.interceptor.id': step.id, 'mcp.interceptor.phase': chain.phase });
      }
    }
  }
}
