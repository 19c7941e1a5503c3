// The SQLite recorder's two timers, apart from what it writes: the flush timer (after the interval, or at
// once when a full batch is waiting) and the retry timer (a backoff after a failed write, which replaces
// the flush timer: while paused, records only queue). Neither keeps a process alive by itself: owners
// flush or close the recorder before exiting.
export class FlushTimers {
  private timer: NodeJS.Timeout | undefined;
  /** The armed timer fires at once (a full batch is waiting), not after the interval. */
  private timerImmediate = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly intervalMs: number) {}

  /** Paused after a failed write, until the retry fires (or `resume`). */
  get paused(): boolean {
    return this.retryTimer !== undefined;
  }

  /** Arms the flush timer. One already armed is kept, unless this one fires at once and it would not. */
  arm(immediate: boolean, fire: () => void): void {
    if (this.timer) {
      if (this.timerImmediate || !immediate) return;
      clearTimeout(this.timer); // a batch filled up before the interval ended: write it now
    }
    this.timerImmediate = immediate;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        fire();
      },
      immediate ? 0 : this.intervalMs,
    );
    this.timer.unref();
  }

  /** Replaces the flush timer with one retry after `delayMs` (none if one is already waiting). */
  armRetry(delayMs: number, fire: () => void): void {
    if (this.retryTimer) return;
    this.clearFlush();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      fire();
    }, delayMs);
    this.retryTimer.unref();
  }

  /** Ends a pause without its retry (the caller writes now instead). */
  resume(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  clear(): void {
    this.clearFlush();
    this.resume();
  }

  private clearFlush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
