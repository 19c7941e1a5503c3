// The backend deadline of a session's forwarded requests. One sweep timer per session (armed only while
// something waits) instead of a timer per request: the hot path only notes when the request left. A
// progress notification of the request pushes its deadline back (the backend is visibly working).
import type { GatewayConfig } from '../../shared/config/schema';
import type { Exchange } from './exchange';
import type { JsonRpcId } from './jsonrpc';

/** Sweeps a few times per deadline, never more often than this (ms)... */
const MIN_SWEEP_MS = 10;
/** ...nor less often than this: expiry is late by at most about a fifth of the deadline. */
const MAX_SWEEP_MS = 1000;

export class BackendDeadlines {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly config: () => GatewayConfig,
    private readonly pending: ReadonlyMap<JsonRpcId, Exchange>,
    private readonly expire: (ex: Exchange, timeoutMs: number) => void,
  ) {}

  /** The deadline of one method (per-method override, else the gateway's). */
  timeoutOf(method: string): number {
    const config = this.config();
    return config.backendMethodTimeoutsMs[method] ?? config.backendTimeoutMs;
  }

  /** A request was just forwarded: make sure the sweep runs. */
  watch(ex: Exchange): void {
    ex.sentAt = performance.now();
    if (this.timer) return;
    const config = this.config();
    const shortest = Math.min(config.backendTimeoutMs, ...Object.values(config.backendMethodTimeoutsMs));
    const every = Math.max(MIN_SWEEP_MS, Math.min(MAX_SWEEP_MS, Math.floor(shortest / 5)));
    this.timer = setInterval(() => this.sweep(), every);
    // The sweep never keeps a process alive: a gateway that is done exits.
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private sweep(): void {
    const now = performance.now();
    let waiting = 0;
    for (const ex of [...this.pending.values()]) {
      if (ex.sentAt === undefined) continue;
      waiting++;
      const timeoutMs = this.timeoutOf(ex.method);
      const since = Math.max(ex.sentAt, ex.lastProgressAt ?? 0);
      if (now - since >= timeoutMs) {
        waiting--;
        this.expire(ex, timeoutMs);
      }
    }
    if (waiting === 0) this.stop();
  }
}
