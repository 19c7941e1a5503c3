// The backend deadline of a session's forwarded requests. One sweep timer per session (armed only while
// something waits) instead of a timer per request: the hot path only notes when the request left. A
// progress notification of the request pushes its deadline back (the backend is visibly working), and so
// does the backend waiting on the client: while a request of the backend waits for a person's answer
// (sampling, elicitation), the clock of the session's calls restarts. Only those two methods, and only for MAX_PERSON_WAIT_MS: a ping or roots/list the client never answers must
// not keep a hung backend's calls from their deadline.
import type { GatewayConfig } from '../../../shared/config/schema';
import type { Exchange } from './exchange';
import type { JsonRpcId } from '../wire/jsonrpc';

/** Backend requests that wait on a person at the client, and how long such a wait may hold the clock. */
const ASKS_A_PERSON = new Set(['sampling/createMessage', 'elicitation/create']);
const MAX_PERSON_WAIT_MS = 15 * 60_000;

/** Sweeps a few times per deadline, never more often than this (ms)... */
const MIN_SWEEP_MS = 10;
/** ...nor less often than this: expiry is late by at most about a fifth of the deadline. */
const MAX_SWEEP_MS = 1000;

export class BackendDeadlines {
  private timer?: NodeJS.Timeout;
  /** When each call's clock last restarted because the backend was waiting on a person at the client. */
  private readonly waitedOnClient = new WeakMap<Exchange, number>();

  constructor(
    private readonly config: () => GatewayConfig,
    private readonly pending: ReadonlyMap<JsonRpcId, Exchange>,
    private readonly expire: (ex: Exchange, timeoutMs: number) => void,
    /** The backend's own requests the client has not answered yet (a person may be answering one). */
    private readonly askedOfClient: ReadonlyMap<JsonRpcId, Exchange> = new Map(),
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
    let backendWaitsOnClient = false;
    for (const ask of this.askedOfClient.values()) {
      if (ASKS_A_PERSON.has(ask.method) && now - ask.t0 < MAX_PERSON_WAIT_MS) backendWaitsOnClient = true;
    }
    let waiting = 0;
    for (const ex of [...this.pending.values()]) {
      if (ex.sentAt === undefined) continue;
      waiting++;
      if (backendWaitsOnClient) {
        this.waitedOnClient.set(ex, now);
        continue;
      }
      const timeoutMs = this.timeoutOf(ex.method);
      const since = Math.max(ex.sentAt, ex.lastProgressAt ?? 0, this.waitedOnClient.get(ex) ?? 0);
      if (now - since >= timeoutMs) {
        waiting--;
        this.expire(ex, timeoutMs);
      }
    }
    if (waiting === 0) this.stop();
  }
}
