// One entry of `chain.order` as the core sends it and the Chain screen reads it: an interceptor as the
// engine plans it for one event and phase, or one that does not apply there, with the reason.
// A type, not an interface, so that it meets the API schema's open object (zod's looseObject index signature).
export type OrderedInterceptorView = {
  /** `server/name` */
  id: string;
  server: string;
  name: string;
  type: string;
  pass: string;
  /** Effective priority for the planned phase. */
  priority: number;
  mode?: string;
  failOpen?: boolean;
  enabled?: boolean;
  timeoutMs?: number;
  /** Effective hooks (declared, or the narrowed override). */
  hooks?: { events: string[]; phase: 'request' | 'response' }[];
  /** Why it does not run for this event and phase; absent when it runs. */
  skipped?: string;
  skipDetail?: string;
};
