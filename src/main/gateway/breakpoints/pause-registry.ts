// The gateway's open pauses. A pause holds only its own exchange (the session awaits it; nothing else
// waits), resolves once: by a decision (console, control endpoint, terminal), by its timeout (the
// breakpoint's onTimeout policy, and the trace says so), or because its call went away (client cancel,
// session closed). A decision is checked before it is taken: a refused one leaves the pause open.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { MAX_PAUSE_TIMEOUT_MS } from '../../../shared/config/breakpoints';
import type { PauseDecision, PauseDecisionKind, PausedCall, PauseRecord } from '../../../shared/trace/pauses';

export type PauseOutcome = { decision: PauseDecision; by: string; timedOut: boolean } | { decision: { kind: 'cancelled' }; by: string; timedOut: false };

export interface PauseRequest {
  view: Omit<PausedCall, 'id' | 'pausedAt' | 'deadline'>;
  /** Problems with a decision (an edit that is not valid params, a mock that is not a result); [] = fine. */
  check(decision: PauseDecision): string[];
  /** The call went away (cancelled, session closed): the pause resolves as cancelled. */
  signal?: AbortSignal;
  /**
   * Called synchronously as the pause resolves, before anything awaits: a call cancelled (or a session
   * closed) is recorded right after its abort, and its record must already hold this pause.
   */
  onResolved?(record: PauseRecord): void;
}

interface OpenPause {
  view: PausedCall;
  check(decision: PauseDecision): string[];
  resolve(outcome: PauseOutcome): void;
}

/** A decision the pause cannot take; the message says what to change. */
export class PauseDecisionError extends Error {
  override name = 'PauseDecisionError';
  constructor(
    message: string,
    readonly code: 'not-found' | 'not-allowed' | 'invalid',
  ) {
    super(message);
  }
}

export interface PauseRegistryEvents {
  paused: [PausedCall];
  resolved: [{ id: string; gateway: string; record: PauseRecord }];
  /** A listener of `paused` or `resolved` threw; the pause went on regardless. */
  'listener-error': [Error];
}

export class PauseRegistry extends EventEmitter<PauseRegistryEvents> {
  private readonly open = new Map<string, OpenPause>();

  list(): PausedCall[] {
    return [...this.open.values()].map((p) => p.view);
  }

  get(id: string): PausedCall | undefined {
    return this.open.get(id)?.view;
  }

  get size(): number {
    return this.open.size;
  }

  /** Pauses until decided, timed out or cancelled; the record says which. */
  pause(request: PauseRequest): Promise<{ outcome: PauseOutcome; record: PauseRecord }> {
    const id = randomUUID();
    const t0 = performance.now();
    const pausedAt = new Date();
    // BreakpointSchema bounds timeoutMs; clamped here too, since a timer past 2^31-1 ms fires at once.
    const timeoutMs = Math.min(request.view.timeoutMs, MAX_PAUSE_TIMEOUT_MS);
    const view: PausedCall = {
      ...request.view,
      timeoutMs,
      id,
      pausedAt: pausedAt.toISOString(),
      deadline: new Date(pausedAt.getTime() + timeoutMs).toISOString(),
    };
    return new Promise((done) => {
      const onAbort = () => finish({ decision: { kind: 'cancelled' }, by: 'client', timedOut: false });
      const finish = (outcome: PauseOutcome) => {
        if (!this.open.delete(id)) return;
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
        const record = pauseRecord(view, outcome, performance.now() - t0);
        request.onResolved?.(record);
        // Once out of `open` the call must go on whatever a listener does: a listener that threw here
        // (the control endpoint could not serialize the record) used to lose the call, never answered.
        this.notify('resolved', { id, gateway: view.gateway, record });
        done({ outcome, record });
      };
      this.open.set(id, { view, check: request.check, resolve: finish });
      const timer: NodeJS.Timeout = setTimeout(() => {
        const decision: PauseDecision =
          view.onTimeout === 'block'
            ? {
                kind: 'block',
                message: `Paused at breakpoint "${view.breakpoint}" for ${view.timeoutMs} ms with no decision: blocked (the breakpoint's onTimeout)`,
              }
            : { kind: 'continue' };
        finish({ decision, by: 'timeout', timedOut: true });
      }, view.timeoutMs);
      // A pause never keeps a process alive by itself: the call it holds does.
      timer.unref();
      if (request.signal?.aborted) return onAbort();
      request.signal?.addEventListener('abort', onAbort, { once: true });
      this.notify('paused', view);
    });
  }

  /**
   * Tells the listeners (the console, a control endpoint's event stream, the terminal). A listener that
   * throws is reported with `listener-error` (or a process warning) and never changes what the pause does.
   */
  private notify<K extends 'paused' | 'resolved'>(event: K, ...args: PauseRegistryEvents[K]): void {
    // rawListeners: a once() listener's wrapper, which removes itself as emit() would.
    for (const listener of this.rawListeners(event) as ((...a: PauseRegistryEvents[K]) => void)[]) {
      try {
        listener(...args);
      } catch (err) {
        if (this.listenerCount('listener-error') > 0) this.emit('listener-error', err as Error);
        else process.emitWarning(`a pause listener failed on "${event}": ${(err as Error).message}`);
      }
    }
  }

  /** Takes a decision; throws PauseDecisionError (and the pause stays open) when it cannot be taken. */
  decide(id: string, decision: PauseDecision, by: string): void {
    const pause = this.open.get(id);
    if (!pause) throw new PauseDecisionError(`No paused call ${id}: it was decided, timed out or cancelled already`, 'not-found');
    if (!pause.view.allowed.includes(decision.kind)) {
      throw new PauseDecisionError(
        `"${decision.kind}" is not possible at ${pause.view.at}${pause.view.interceptor ? ` (${pause.view.interceptor})` : ''}; choose one of ${pause.view.allowed.join(', ')}`,
        'not-allowed',
      );
    }
    const problems = pause.check(decision);
    if (problems.length > 0)
      throw new PauseDecisionError(`The ${decision.kind === 'answer' ? 'result' : 'payload'} is not valid: ${problems.slice(0, 5).join('; ')}`, 'invalid');
    pause.resolve({ decision, by, timedOut: false });
  }

  /** Resolves every open pause by its timeout policy now (a gateway stopping). */
  releaseAll(): void {
    for (const p of [...this.open.values()]) {
      p.resolve({
        decision: p.view.onTimeout === 'block' ? { kind: 'block', message: 'The gateway stopped while this call was paused' } : { kind: 'continue' },
        by: 'gateway stopping',
        timedOut: true,
      });
    }
  }
}

function pauseRecord(view: PausedCall, outcome: PauseOutcome, waitedMs: number): PauseRecord {
  const record: PauseRecord = {
    id: view.id,
    at: view.at,
    breakpoint: view.breakpoint,
    pausedAt: view.pausedAt,
    resolvedAt: new Date().toISOString(),
    waitedMs: Math.round(waitedMs),
    decision: outcome.decision.kind as PauseDecisionKind | 'cancelled',
    by: outcome.by,
  };
  if (view.interceptor) record.interceptor = view.interceptor;
  if (outcome.timedOut) record.timedOut = true;
  const d = outcome.decision;
  if (d.kind === 'block') record.message = d.message;
  if (d.kind === 'edit') {
    record.before = view.payload;
    record.after = d.payload;
  }
  if (d.kind === 'answer') record.after = d.result;
  return record;
}
