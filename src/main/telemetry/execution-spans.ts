// One recorded execution as OpenTelemetry spans: the exchange (SERVER span, continuing the client's trace
// when its `_meta.traceparent` named one), a child per interceptor step that ran (request and response
// phase), and a CLIENT child for the backend call. Built after the fact from the recorded execution (its
// summary), so the times are the recorded ones and nothing here runs on the request path.
import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime, type SpanContext } from '@opentelemetry/api';
import { TraceState, hrTimeDuration, millisToHrTime, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { ChainSummary, ExecutionSummary, StepSummary } from './execution-summary';
import type { SpanIds } from './traceparent';
import { parseTraceParent, traceIdOfExecution, type TraceParent } from './traceparent';

/** Attribute names: the MCP semantic conventions where they exist, `mcp.gateway.*` / `mcp.interceptor.*` for the rest. */
export const Attr = {
  method: 'mcp.method.name',
  session: 'mcp.session.id',
  requestId: 'jsonrpc.request.id',
  target: 'mcp.target',
  gateway: 'mcp.gateway.name',
  outcome: 'mcp.gateway.outcome',
  execution: 'mcp.gateway.execution_id',
  blockedBy: 'mcp.gateway.blocked_by',
  principal: 'enduser.id',
  principalType: 'mcp.principal.type',
  interceptor: 'mcp.interceptor.id',
  interceptorType: 'mcp.interceptor.type',
  phase: 'mcp.interceptor.phase',
  pass: 'mcp.interceptor.pass',
  mode: 'mcp.interceptor.mode',
  stepOutcome: 'mcp.interceptor.outcome',
  errorType: 'error.type',
} as const;

export interface SpanContextOf {
  resource: Resource;
  scope: InstrumentationScope;
  ids: SpanIds;
}

/**
 * Where the exchange sits in its trace: the client's traceparent when it sent one, else a new trace whose id is
 * the execution id. The same function decides it when the gateway forwards and when the spans are built.
 */
export function exchangeTrace(executionId: string, clientTraceparent: unknown): { traceId: string; parent?: TraceParent } {
  const parent = parseTraceParent(clientTraceparent);
  return parent ? { traceId: parent.traceId, parent } : { traceId: traceIdOfExecution(executionId) };
}

type Status = { code: SpanStatusCode; message?: string };
const UNSET: Status = { code: SpanStatusCode.UNSET };
const NO_LINKS: ReadableSpan['links'] = [];
const NO_EVENTS: ReadableSpan['events'] = [];

/**
 * A finished span as the SDK's processors and OTLP serialisers read it. A class, not an object literal with a
 * conditional spread: every span has the same hidden class, which made building them ~3.5× cheaper on the export
 * thread (bench/otel.ts, issue #18). The empty links/events arrays are shared: nothing downstream mutates them.
 */
class RecordedSpan implements ReadableSpan {
  readonly links = NO_LINKS;
  readonly events = NO_EVENTS;
  readonly ended = true;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  readonly startTime: HrTime;
  readonly endTime: HrTime;
  readonly duration: HrTime;
  readonly resource: Resource;
  readonly instrumentationScope: InstrumentationScope;

  constructor(
    c: SpanContextOf,
    readonly name: string,
    readonly kind: SpanKind,
    private readonly context: SpanContext,
    readonly parentSpanContext: SpanContext | undefined,
    startMs: number,
    endMs: number,
    readonly attributes: Attributes,
    readonly status: Status = UNSET,
  ) {
    this.startTime = millisToHrTime(startMs);
    this.endTime = millisToHrTime(endMs);
    this.duration = hrTimeDuration(this.startTime, this.endTime);
    this.resource = c.resource;
    this.instrumentationScope = c.scope;
  }

  spanContext(): SpanContext {
    return this.context;
  }
}

export function executionSpans(x: ExecutionSummary, c: SpanContextOf): ReadableSpan[] {
  const { traceId, parent } = exchangeTrace(x.id, x.traceparent);
  const traceState = x.tracestate ? new TraceState(x.tracestate) : undefined;
  const exchangeCtx = spanContext(traceId, c.ids.next(), traceState);
  const parentCtx: SpanContext | undefined = parent ? { traceId: parent.traceId, spanId: parent.spanId, traceFlags: parent.flags, isRemote: true } : undefined;

  // Literal keys (the values of Attr), not computed ones or spreads: one object shape, built in one step.
  const attrs: Attributes = {
    'mcp.method.name': x.event,
    'mcp.gateway.name': x.gateway,
    'mcp.gateway.outcome': x.outcome,
    'mcp.gateway.execution_id': x.id,
  };
  if (x.target !== undefined) attrs[Attr.target] = x.target;
  if (x.sessionId) attrs[Attr.session] = x.sessionId;
  if (x.jsonrpcId !== undefined) attrs[Attr.requestId] = x.jsonrpcId;
  if (x.principal) {
    attrs[Attr.principalType] = x.principal.type;
    if (x.principal.id) attrs[Attr.principal] = x.principal.id;
  }
  if (x.blockedBy) attrs[Attr.blockedBy] = x.blockedBy.interceptor;
  if (x.error) attrs[Attr.errorType] = String(x.error.code);

  const name = x.target !== undefined ? `${x.event} ${x.target}` : x.event;
  const errorStatus: Status | undefined = x.outcome === 'error' ? { code: SpanStatusCode.ERROR, message: x.error?.message ?? 'error' } : undefined;
  const spans: ReadableSpan[] = [
    new RecordedSpan(c, name, SpanKind.SERVER, exchangeCtx, parentCtx, x.startedAt, x.startedAt + x.durationMs, attrs, errorStatus),
  ];

  for (const chain of x.chains) for (const step of chain.steps) spans.push(stepSpan(c, x, chain, step, traceState, exchangeCtx));

  if (x.reachedBackend) {
    // The span id the gateway put in the backend's _meta.traceparent, so the backend's own spans hang under it.
    const sent = parseTraceParent(x.forwardedTraceparent);
    const spanId = sent && sent.traceId === traceId ? sent.spanId : c.ids.next();
    // When the backend had the request: from the end of the request-phase chain (or the exchange start) to the
    // start of the response-phase chain (or the exchange end).
    const req = x.chains.find((ch) => ch.phase === 'request');
    const res = x.chains.find((ch) => ch.phase === 'response');
    const from = req ? req.startedAt + req.durationMs : x.startedAt;
    const to = Math.max(from, res ? res.startedAt : x.startedAt + x.durationMs);
    const status = x.outcome === 'error' && !x.blockedBy ? errorStatus : undefined;
    const backendAttrs: Attributes = { 'mcp.method.name': x.event, 'mcp.gateway.name': x.gateway };
    spans.push(
      new RecordedSpan(c, `backend ${x.event}`, SpanKind.CLIENT, spanContext(traceId, spanId, traceState), exchangeCtx, from, to, backendAttrs, status),
    );
  }
  return spans;
}

function spanContext(traceId: string, spanId: string, traceState: TraceState | undefined): SpanContext {
  return { traceId, spanId, traceFlags: TraceFlags.SAMPLED, traceState };
}

function stepSpan(
  c: SpanContextOf,
  x: ExecutionSummary,
  chain: ChainSummary,
  step: StepSummary,
  traceState: TraceState | undefined,
  parent: SpanContext,
): ReadableSpan {
  const start = chain.startedAt + step.startMs;
  const attrs: Attributes = {
    'mcp.method.name': x.event,
    'mcp.gateway.name': x.gateway,
    'mcp.interceptor.id': step.id,
    'mcp.interceptor.type': step.type,
    'mcp.interceptor.phase': chain.phase,
    'mcp.interceptor.pass': step.pass,
    'mcp.interceptor.mode': step.mode,
    'mcp.interceptor.outcome': step.outcome,
  };
  if (step.error) attrs[Attr.errorType] = step.error.kind;
  const status = step.error ? { code: SpanStatusCode.ERROR, message: step.error.message } : UNSET;
  const ctx = spanContext(parent.traceId, c.ids.next(), traceState);
  return new RecordedSpan(c, `interceptor ${step.id}`, SpanKind.INTERNAL, ctx, parent, start, start + step.durationMs, attrs, status);
}
