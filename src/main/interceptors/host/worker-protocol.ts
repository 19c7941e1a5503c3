// Messages between an InterceptorHost and the worker threads that run its CPU-heavy handlers.
import type { Phase } from '../../../shared/protocol/constants';
import type { InvocationContext } from '../../../shared/protocol/schemas';

/** workerData of a handler worker: a bundle runs every module's top level, only this starts serving. */
export const HANDLER_WORKER_KIND = 'interceptor-handlers';

export interface HandlerCall {
  name: string;
  payload: unknown;
  config: unknown;
  context: InvocationContext | undefined;
  event: string;
  phase: Phase;
}

export type HandlerRequest = HandlerCall & { id: number };
/** `samePayload`: the handler returned the payload it was given; the host puts its own copy back. */
export type HandlerResponse = { id: number; ok: true; value: unknown; samePayload?: boolean } | { id: number; ok: false; error: string };
