// What the exporter needs of an ExecutionRecord, as plain data without the payloads: this crosses to the
// export thread (one structured clone per batch), so it stays small whatever the tools return.
import type { ExecutionRecord, SessionRecord } from '../../shared/trace/execution';
import type { ChainTrace } from '../../shared/trace/types';
import { traceStateOf } from './traceparent';

export interface StepSummary {
  id: string;
  type: string;
  pass: string;
  mode: string;
  outcome: string;
  startMs: number;
  durationMs: number;
  error?: { kind: string; message: string };
}

export interface ChainSummary {
  phase: string;
  /** Epoch ms. */
  startedAt: number;
  durationMs: number;
  steps: StepSummary[];
}

export interface ExecutionSummary {
  id: string;
  gateway: string;
  sessionId?: string;
  jsonrpcId?: string;
  event: string;
  target?: string;
  /** Epoch ms. */
  startedAt: number;
  durationMs: number;
  outcome: ExecutionRecord['outcome'];
  principal?: { type: string; id?: string };
  blockedBy?: { interceptor: string; phase: string };
  error?: { code: number; message: string };
  /** The client's `_meta.traceparent` / `tracestate`, as received. */
  traceparent?: string;
  tracestate?: string;
  /** The traceparent the gateway forwarded to the backend (names the backend-call span). */
  forwardedTraceparent?: string;
  /** The request reached the backend (it was forwarded and not blocked on the way). */
  reachedBackend: boolean;
  chains: ChainSummary[];
}

function metaString(params: unknown, key: string): string | undefined {
  const meta = params && typeof params === 'object' ? (params as { _meta?: Record<string, unknown> })._meta : undefined;
  const value = meta && typeof meta === 'object' ? meta[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function chain(trace: ChainTrace): ChainSummary {
  const steps: StepSummary[] = [];
  for (const s of trace.steps) {
    if (s.skipped) continue; // never ran: no span, no measurement
    const step: StepSummary = { id: s.id, type: s.type, pass: s.pass, mode: s.mode, outcome: s.outcome, startMs: s.startMs, durationMs: s.durationMs };
    if (s.error) step.error = { kind: s.error.kind, message: s.error.message };
    steps.push(step);
  }
  return { phase: trace.phase, startedAt: Date.parse(trace.startedAt), durationMs: trace.durationMs, steps };
}

export function summarize(r: ExecutionRecord, session: SessionRecord | undefined): ExecutionSummary {
  const s: ExecutionSummary = {
    id: r.id,
    gateway: r.gateway,
    event: r.event,
    startedAt: Date.parse(r.startedAt),
    durationMs: r.durationMs,
    outcome: r.outcome,
    reachedBackend:
      r.replayMode !== 'chain-only' && (r.responseReceived !== undefined || (r.requestForwarded !== undefined && r.blockedBy?.phase !== 'request')),
    chains: [],
  };
  if (r.sessionId) s.sessionId = r.sessionId;
  if (r.jsonrpcId !== undefined) s.jsonrpcId = String(r.jsonrpcId);
  if (r.target !== undefined) s.target = r.target;
  if (session?.principal) s.principal = session.principal;
  if (r.blockedBy) s.blockedBy = { interceptor: `${r.blockedBy.server}/${r.blockedBy.interceptor}`, phase: r.blockedBy.phase };
  if (r.errorReturned) s.error = { code: r.errorReturned.code, message: r.errorReturned.message };
  const traceparent = metaString(r.requestReceived, 'traceparent');
  if (traceparent) s.traceparent = traceparent;
  const tracestate = traceStateOf(r.requestReceived);
  if (tracestate) s.tracestate = tracestate;
  const forwarded = metaString(r.requestForwarded, 'traceparent');
  if (forwarded) s.forwardedTraceparent = forwarded;
  if (r.requestTrace) s.chains.push(chain(r.requestTrace));
  if (r.responseTrace) s.chains.push(chain(r.responseTrace));
  return s;
}
