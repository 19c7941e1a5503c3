// The Sinks screen's filter, row and page, whichever engine answers.

export interface SinkEventFilter {
  gateway?: string;
  /** `server/name` or a bare name. */
  interceptor?: string;
  event?: string;
  phase?: 'request' | 'response';
  recorded?: boolean;
  since?: string | number;
  until?: string | number;
  /** Only the sink events of this execution (uuid). */
  executionId?: string;
}

export interface SinkEvent {
  executionId: string;
  gateway: string;
  /** `server/name`, the interceptor's identity. */
  interceptor: string;
  server: string;
  name: string;
  event: string;
  phase: string;
  recorded: boolean;
  metrics?: Record<string, number>;
  error?: unknown;
  at: string;
}

export interface SinkEventPage {
  items: SinkEvent[];
  nextCursor: string | null;
}
