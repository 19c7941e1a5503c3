// Connection status of one interceptor server, as the UI shows it, plus the small helpers the
// client uses to keep it: a bounded stderr tail and the reconnect backoff.

export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'closed';

export interface ConnectionStatus {
  server: string;
  state: ConnectionState;
  /** Human-readable transport target: the command line or the URL. */
  target: string;
  lastError?: string;
  /** Last lines the stdio server wrote to stderr (bounded). */
  stderrTail?: string;
  /** Protocol version negotiated at initialize (A17 compat checks use it). */
  protocolVersion?: string;
  serverInfo?: { name: string; version: string };
  /** Process id of a stdio server while connected. */
  pid?: number;
  /** Consecutive failed connection attempts. */
  failures: number;
  /** Epoch ms before which no new connection is attempted (backoff). */
  nextRetryAt?: number;
  connectedAt?: number;
}

export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  factor?: number;
}

/** Delay before attempt number `failures + 1`: the first retry is immediate, then exponential. */
export function backoffDelay(failures: number, o: BackoffOptions = {}): number {
  if (failures <= 0) return 0;
  const initial = o.initialMs ?? 250;
  const max = o.maxMs ?? 10_000;
  const factor = o.factor ?? 2;
  return Math.min(max, initial * factor ** (failures - 1));
}

/** Keeps the last `limit` characters of a stream, cut at a line start when possible. */
export class TextTail {
  private text = '';
  constructor(private readonly limit = 4096) {}

  push(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.limit) {
      const cut = this.text.slice(this.text.length - this.limit);
      const nl = cut.indexOf('\n');
      this.text = nl >= 0 && nl < cut.length - 1 ? cut.slice(nl + 1) : cut;
    }
  }

  value(): string | undefined {
    return this.text.length ? this.text : undefined;
  }

  clear(): void {
    this.text = '';
  }
}
