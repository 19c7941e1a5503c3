// One recorded execution as OpenTelemetry spans: the exchange (SERVER span, continuing the client's trace
// when its `_meta.traceparent` named one), a child per interceptor step that ran (request and response
// phase), and a CLIENT child for the backend call. Built after the fact from the recorded execution (its
// summary), so the times are the recorded ones and nothing here runs on the request path.
import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime, type SpanContext } from '@opentelemetry/api';
import { TraceState, hrTimeDuration, millisToHrTime, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { ChainSummary, ExecutionSummary, StepSummary } from './execution-summary';
import type { SpanIds} from './traceparent';
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

function span(c: SpanContextOf, name: string, kind: SpanKind, ctx: SpanContext, parent: SpanContext | undefined, start: HrTime, end: HrTime, attributes: Attributes, status = UNSET): ReadableSpan {
  return {
    name,
    kind,
    spanContext: () => ctx,
    ...(parent ? { parentSpanContext: parent } : {}),
    startTime: start,
    endTime: end,
    duration: hrTimeDuration(start, end),
    status,
    attributes,
    links: [],
    events: [],
    ended: true,
    resource: c.resource,
    instrumentationScope: c.scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

export function executionSpans(x: ExecutionSummary, c: SpanContextOf): ReadableSpan[] {
  const { traceId, parent } = exchangeTrace(x.id, x.traceparent);
  const base = { traceId, traceFlags: TraceFlags.SAMPLED, ...(x.tracestate ? { traceState: new TraceState(x.tracestate) } : {}) };
  const exchangeCtx: SpanContext = { ...base, spanId: c.ids.next() };
  const parentCtx: SpanContext | undefined = parent ? { traceId: parent.traceId, spanId: parent.spanId, traceFlags: parent.flags, isRemote: true } : undefined;

  const common: Attributes = { [Attr.method]: x.event, [Attr.gateway]: x.gateway };
  const attrs: Attributes = { ...common, [Attr.outcome]: x.outcome, [Attr.execution]: x.id };
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
  const spans = [span(c, name, SpanKind.SERVER, exchangeCtx, parentCtx, millisToHrTime(x.startedAt), millisToHrTime(x.startedAt + x.durationMs), attrs, errorStatus)];

  for (const chain of x.chains) for (const step of chain.steps) spans.push(stepSpan(c, chain, step, base, exchangeCtx, common));

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
    spans.push(span(c, `backend ${x.event}`, SpanKind.CLIENT, { ...base, spanId }, exchangeCtx, millisToHrTime(from), millisToHrTime(to), { ...common }, status));
  }
  return spans;
}

function stepSpan(c: SpanContextOf, chain: ChainSummary, step: StepSummary, base: Omit<SpanContext, 'spanId'>, parent: SpanContext, common: Attributes): ReadableSpan {
  const start = chain.startedAt + step.startMs;
  const attrs: Attributes = {
    ...common,
    [Attr.interceptor]: step.id,
    [Attr.interceptorType]: step.type,
    [Attr.phase]: chain.phase,
    [Attr.pass]: step.pass,
    [Attr.mode]: step.mode,
    [Attr.stepOutcome]: step.outcome,
  };
  if (step.error) attrs[Attr.errorType] = step.error.kind;
  const status = step.error ? { code: SpanStatusCode.ERROR, message: step.error.message } : UNSET;
  return span(c, `interceptor ${step.id}`, SpanKind.INTERNAL, { ...base, spanId: c.ids.next() }, parent, millisToHrTime(start), millisToHrTime(start + step.durationMs), attrs, status);
}
