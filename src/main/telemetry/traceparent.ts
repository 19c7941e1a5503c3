// W3C Trace Context (https://www.w3.org/TR/trace-context/) as MCP carries it: a `traceparent` (and optional
// `tracestate`) string in a request's `params._meta`. The gateway continues a client's trace from it and
// hands its own position in the trace to the backend the same way.
import { randomBytes } from 'node:crypto';

export interface TraceParent {
  traceId: string;
  spanId: string;
  /** The trace-flags byte (bit 0: sampled). */
  flags: number;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** A valid traceparent, or undefined (malformed, all-zero ids or the forbidden version ff are ignored, per spec). */
export function parseTraceParent(value: unknown): TraceParent | undefined {
  if (typeof value !== 'string') return undefined;
  const m = TRACEPARENT.exec(value.trim().toLowerCase());
  if (!m) return undefined;
  const [, version, traceId, spanId, flags] = m as unknown as [string, string, string, string, string];
  if (version === 'ff' || traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  // Version 00 has exactly four fields; later versions may append more (kept compatible by the regex).
  if (version === '00' && value.trim().length !== 55) return undefined;
  return { traceId, spanId, flags: parseInt(flags, 16) };
}

export function formatTraceParent(p: TraceParent): string {
  return `00-${p.traceId}-${p.spanId}-${p.flags.toString(16).padStart(2, '0')}`;
}

function metaOf(params: unknown): Record<string, unknown> | undefined {
  if (!params || typeof params !== 'object' || Array.isArray(params)) return undefined;
  const meta = (params as Record<string, unknown>)._meta;
  return meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>) : undefined;
}

/** The traceparent a request's `params._meta` carries, if any. */
export function traceParentOf(params: unknown): TraceParent | undefined {
  return parseTraceParent(metaOf(params)?.traceparent);
}

export function traceStateOf(params: unknown): string | undefined {
  const state = metaOf(params)?.tracestate;
  return typeof state === 'string' ? state : undefined;
}

/** An execution id (a UUID) as a trace id: the trace of an execution the client did not trace is findable by its id. */
export function traceIdOfExecution(executionId: string): string {
  const hex = executionId.replace(/-/g, '').toLowerCase();
  return /^[0-9a-f]{32}$/.test(hex) && hex !== ZERO_TRACE ? hex : randomBytes(16).toString('hex');
}

/** Span ids from a pool of random bytes: one crypto call per 512 ids instead of one per span. */
export class SpanIds {
  private pool = Buffer.alloc(0);
  private offset = 0;
  next(): string {
    for (;;) {
      if (this.offset + 8 > this.pool.length) {
        this.pool = randomBytes(4096);
        this.offset = 0;
      }
      const id = this.pool.toString('hex', this.offset, (this.offset += 8));
      if (id !== ZERO_SPAN) return id;
    }
  }
}

/**
 * `params` with `_meta.traceparent` set to (traceId, spanId): a new object, the caller's is not touched.
 * The client's `tracestate` is passed on as is (we add no vendor entry).
 */
export function withTraceParent(params: Record<string, unknown> | undefined, parent: TraceParent): Record<string, unknown> {
  const meta = metaOf(params) ?? {};
  return { ...(params ?? {}), _meta: { ...meta, traceparent: formatTraceParent(parent) } };
}
