// The Gateways cards' and Traffic charts' answers (counters, latencies, time buckets) and the gateways
// a history has seen, whichever engine computes them.

export interface AggregateWindow {
  gateway?: string;
  /** ISO 8601 or epoch ms; inclusive. Default: everything. */
  since?: string | number;
  /** Exclusive. Default: everything. */
  until?: string | number;
}

export interface GatewayCounters {
  gateway: string;
  calls: number;
  allowed: number;
  blocked: number;
  mutated: number;
  errors: number;
  p50Ms: number | null;
  p95Ms: number | null;
  lastAt: string | null;
}

export interface InterceptorLatency {
  /** `server/name`. */
  interceptor: string;
  server: string;
  name: string;
  type: string;
  phase: string;
  invocations: number;
  blocked: number;
  mutated: number;
  /** Failed invocations (timeout, crash...), whether routed open or closed. */
  failed: number;
  p50Ms: number | null;
  p90Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

export interface TimeBucket {
  start: string;
  startMs: number;
  calls: number;
  blocked: number;
  mutated: number;
  errors: number;
  p50Ms: number | null;
}

export interface RecordedGateway {
  name: string;
  /** The config snapshot (secrets removed by the gateway), or null when none was recorded. */
  config: unknown;
  createdAt: string;
  updatedAt: string;
}
