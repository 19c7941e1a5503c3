// The Sinks screen's filter, whichever engine answers. The row and the page are the API's
// (src/shared/api/models-traffic.ts): one definition, which the engines produce and the screens read.
import type { SinkEvent, SinkEventPage } from '../../../shared/api/models-traffic';

export type { SinkEvent, SinkEventPage };

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
