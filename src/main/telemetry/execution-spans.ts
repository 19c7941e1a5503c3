// One recorded execution as OpenTelemetry spans: the exchange (SERVER span, continuing the client's trace
// when its `_meta.traceparent` named one), a child per interceptor step that ran (request and response
// phase), and a CLIENT child for the backend call. Built after the fact from the ExecutionRecord the gateway
// recorded, so the times are the recorded ones and nothing here runs on the request path.
import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type SpanContext, type HrTime } from '@opentelemetry/api';
import { hrTimeDuration, millisToHrTime, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { ExecutionRecord, SessionRecord } from '../../shared/trace/execution';
import type { ChainTrace, TraceStep } from '../../shared/trace/types';
import { newSpanId, traceIdOfExecution, traceParentOf, traceStateOf, type TraceParent } from './traceparent';
import { TraceState } from '@opentelemetry/core';

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
}

/**
 * Where the exchange sits in its trace: the client's traceparent when it sent one, else a new trace whose id is
 * the execution id. The same function decides it when the gateway forwards and when the spans are built.
 */
export function exchangeTrace(executionId: string, requestReceived: unknown): { traceId: string; parent?: TraceParent } {
  const parent = traceParentOf(requestReceived);
  return parent ? { traceId: parent.traceId, parent } : { traceId: traceIdOfExecution(executionId) };
}

const ms = (iso: string, offsetMs = 0): HrTime => millisToHrTime(Date.parse(iso) + offsetMs);

function span(
  c: SpanContextOf,
  name: string,
  kind: SpanKind,
  ctx: SpanContext,
  parent: SpanContext | undefined,
  start: HrTime,
  end: HrTime,
  attributes: Attributes,
  status: { code: SpanStatusCode; message?: string } = { code: SpanStatusCode.UNSET },
): ReadableSpan {
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

export function executionSpans(record: ExecutionRecord, session: SessionRecord | undefined, c: SpanContextOf): ReadableSpan[] {
  const { traceId, parent } = exchangeTrace(record.id, record.requestReceived);
  const traceState = traceStateOf(record.requestReceived);
  const base = {
    traceId,
    traceFlags: TraceFlags.SAMPLED,
    ...(traceState ? { traceState: new TraceState(traceState) } : {}),
  };
  const exchangeCtx: SpanContext = { ...base, spanId: newSpanId() };
  const parentCtx: SpanContext | undefined = parent
    ? { traceId: parent.traceId, spanId: parent.spanId, traceFlags: parent.flags, isRemote: true }
    : undefined;

  const common: Attributes = { [Attr.method]: record.event, [Attr.gateway]: record.gateway };
  const exchangeAttrs: Attributes = { ...common, [Attr.outcome]: record.outcome, [Attr.execution]: record.id };
  if (record.target !== undefined) exchangeAttrs[Attr.target] = record.target;
  if (record.sessionId) exchangeAttrs[Attr.session] = record.sessionId;
  if (record.jsonrpcId !== undefined) exchangeAttrs[Attr.requestId] = String(record.jsonrpcId);
  if (session?.principal) {
    exchangeAttrs[Attr.principalType] = session.principal.type;
    if (session.principal.id) exchangeAttrs[Attr.principal] = session.principal.id;
  }
  if (record.blockedBy) exchangeAttrs[Attr.blockedBy] = `${record.blockedBy.server}/${record.blockedBy.interceptor}`;
  if (record.errorReturned) exchangeAttrs[Attr.errorType] = String(record.errorReturned.code);

  const start = ms(record.startedAt);
  const end = ms(record.startedAt, record.durationMs);
  const name = record.target !== undefined ? `${record.event} ${record.target}` : record.event;
  const status = record.outcome === 'error' ? { code: SpanStatusCode.ERROR, message: record.errorReturned?.message ?? 'error' } : undefined;
  const spans = [span(c, name, SpanKind.SERVER, exchangeCtx, parentCtx, start, end, exchangeAttrs, status)];

  for (const trace of [record.requestTrace, record.responseTrace]) {
    if (trace) for (const step of trace.steps) if (!step.skipped) spans.push(stepSpan(c, trace, step, base, exchangeCtx, common));
  }

  const backend = backendWindow(record);
  if (backend) {
    // The span id the gateway put in the backend's _meta.traceparent, so the backend's own spans hang under it.
    const sent = traceParentOf(record.requestForwarded);
    const spanId = sent && sent.traceId === traceId ? sent.spanId : newSpanId();
    const backendStatus = record.outcome === 'error' && !record.blockedBy ? { code: SpanStatusCode.ERROR, message: record.errorReturned?.message ?? 'error' } : undefined;
    spans.push(span(c, `backend ${record.event}`, SpanKind.CLIENT, { ...base, spanId }, exchangeCtx, backend.start, backend.end, { ...common }, backendStatus));
  }
  return spans;
}

function stepSpan(c: SpanContextOf, trace: ChainTrace, step: TraceStep, base: Omit<SpanContext, 'spanId'>, parent: SpanContext, common: Attributes): ReadableSpan {
  const start = ms(trace.startedAt, step.startMs);
  const end = ms(trace.startedAt, step.startMs + step.durationMs);
  const attrs: Attributes = {
    ...common,
    [Attr.interceptor]: step.id,
    [Attr.interceptorType]: step.type,
    [Attr.phase]: trace.phase,
    [Attr.pass]: step.pass,
    [Attr.mode]: step.mode,
    [Attr.stepOutcome]: step.outcome,
  };
  if (step.error) attrs[Attr.errorType] = step.error.kind;
  const status = step.error ? { code: SpanStatusCode.ERROR, message: step.error.message } : undefined;
  return span(c, `interceptor ${step.id}`, SpanKind.INTERNAL, { ...base, spanId: newSpanId() }, parent, start, end, attrs, status);
}

/**
 * When the backend had the request: from the end of the request-phase chain (or the exchange start) to the
 * start of the response-phase chain (or the exchange end). None when the request never reached it (blocked
 * or failed in the request phase, or answered by the gateway).
 */
function backendWindow(record: ExecutionRecord): { start: HrTime; end: HrTime } | undefined {
  const reached = record.responseReceived !== undefined || (record.requestForwarded !== undefined && record.blockedBy?.phase !== 'request');
  if (!reached || record.replayMode === 'chain-only') return undefined;
  const req = record.requestTrace;
  const startMs = req ? Date.parse(req.startedAt) + req.durationMs : Date.parse(record.startedAt);
  const res = record.responseTrace;
  const endMs = res ? Date.parse(res.startedAt) : Date.parse(record.startedAt) + record.durationMs;
  return { start: millisToHrTime(startMs), end: millisToHrTime(Math.max(startMs, endMs)) };
}
