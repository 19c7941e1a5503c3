// Liveness of one connection to an interceptor server. A server that misses its invoke deadlines
// several times in a row, or does not answer `ping` (after a missed deadline, and every
// pingIntervalMs), is unhealthy: the client kills it (stdio: SIGTERM, SIGKILL after a grace period, to
// its process group: terminateGroup in processes/process-tree.ts) and reconnects with backoff, while its
// interceptors fail and are routed by failOpen. A server stuck in CPU on one payload then stops costing
// every later call its full deadline.

export interface HealthOptions {
  /** Ping the server this often while connected; 0 turns periodic pings off. Default 15 s. */
  pingIntervalMs?: number;
  /** A ping not answered within this is a dead server. Default 5 s. */
  pingTimeoutMs?: number;
  /** Invokes left unanswered past their deadline, in a row, before a restart. Default 3. */
  maxMissedDeadlines?: number;
  /** Between SIGTERM and SIGKILL. Default 2 s. */
  killGraceMs?: number;
}

export class ConnectionHealth {
  private missed = 0;
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private stopped = false;

  constructor(
    private readonly options: HealthOptions,
    private readonly ping: (timeoutMs: number) => Promise<unknown>,
    private readonly onUnhealthy: (reason: string) => void,
  ) {
    const every = options.pingIntervalMs ?? 15_000;
    if (every > 0) {
      this.timer = setInterval(() => void this.probe(), every);
      this.timer.unref();
    }
  }

  /** The server answered an invoke (a result or a JSON-RPC error): it is alive and working. */
  answered(): void {
    this.missed = 0;
  }

  /** An invoke ended unanswered after its deadline. */
  missedDeadline(): void {
    if (this.stopped) return;
    this.missed++;
    const max = this.options.maxMissedDeadlines ?? 3;
    if (this.missed >= max) this.fail(`it missed ${this.missed} invoke deadlines in a row`);
    else void this.probe();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  private async probe(): Promise<void> {
    if (this.probing || this.stopped) return;
    this.probing = true;
    const ms = this.options.pingTimeoutMs ?? 5_000;
    try {
      await this.ping(ms);
    } catch {
      this.fail(`it did not answer ping within ${ms}ms`);
    } finally {
      this.probing = false;
    }
  }

  private fail(reason: string): void {
    if (this.stopped) return;
    this.stop();
    this.onUnhealthy(reason);
  }
}
