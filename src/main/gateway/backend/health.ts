// Whether a gateway reaches its backend, as the gateway last saw it: every backend connect (each session
// connects its own) and every backend that died or refused a request reports here. A card shows it, so a
// gateway whose backend is down does not look healthy just because its listener runs.
export interface BackendHealthSnapshot {
  /** unknown: no session has connected yet (an HTTP backend is reached on the first client's initialize). */
  state: 'unknown' | 'connected' | 'failing';
  /** When the current state began (ISO). */
  since?: string;
  /** The last failure, while failing. */
  error?: string;
  /** Failed connects and lost backends since the gateway started. */
  failures: number;
}

export class BackendHealth {
  private snap: BackendHealthSnapshot = { state: 'unknown', failures: 0 };

  constructor(private readonly onChange: () => void) {}

  connected(): void {
    if (this.snap.state === 'connected') return;
    this.snap = { state: 'connected', since: new Date().toISOString(), failures: this.snap.failures };
    this.onChange();
  }

  failed(error: string): void {
    const since = this.snap.state === 'failing' && this.snap.since ? this.snap.since : new Date().toISOString();
    this.snap = { state: 'failing', since, error, failures: this.snap.failures + 1 };
    this.onChange();
  }

  snapshot(): BackendHealthSnapshot {
    return { ...this.snap };
  }
}
