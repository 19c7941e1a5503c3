// The inside of a handler worker: runs the handlers it was built with, one call at a time, and
// answers each by id. A call is stopped by terminating the worker (a CPU-bound handler never looks
// at a signal), so the signal handlers see here never fires.
import { parentPort, workerData } from 'node:worker_threads';
import type { HandlerContext, InterceptorRegistration } from './types';
import { HANDLER_WORKER_KIND, type HandlerRequest, type HandlerResponse } from './worker-protocol';

/** True in a thread started by WorkerHandlerPool. */
export function isHandlerWorker(): boolean {
  return parentPort !== null && (workerData as { kind?: unknown } | undefined)?.kind === HANDLER_WORKER_KIND;
}

export function serveHandlersInWorker(registrations: readonly InterceptorRegistration[]): void {
  const port = parentPort;
  if (!port) throw new Error('serveHandlersInWorker runs inside a worker thread only');
  const byName = new Map(registrations.map((r) => [r.name, r]));
  const never = new AbortController().signal;
  port.on('message', (req: HandlerRequest) => {
    const reg = byName.get(req.name);
    const answer = (res: HandlerResponse) => port.postMessage(res);
    if (!reg) {
      answer({ id: req.id, ok: false, error: `interceptor '${req.name}' is not served by this worker` });
      return;
    }
    const ctx: HandlerContext<never> = { config: req.config as never, context: req.context, event: req.event, phase: req.phase, signal: never };
    Promise.resolve()
      .then(() => (reg.handler as (p: unknown, c: HandlerContext<never>) => unknown)(req.payload, ctx))
      .then(
        (value) => {
          // "Unchanged": the input itself comes back. Say so instead of copying it back to the host.
          const v = value as { payload?: unknown } | undefined;
          if (v && typeof v === 'object' && 'payload' in v && v.payload === req.payload && req.payload !== undefined) {
            answer({ id: req.id, ok: true, value: { ...v, payload: undefined }, samePayload: true });
          } else answer({ id: req.id, ok: true, value });
        },
        (err: unknown) => answer({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
      );
  });
}
