// Recording off the hop's critical path. A recorder is called in the middle of forwarding: the client's
// request is captured before the gateway writes it to the backend, the backend's answer before the gateway
// writes it to the client, the execution as the answer leaves. Encoding there (a JSON.stringify per
// message, the execution's snapshot) delayed every call by its cost. Queued here instead, it runs in the
// check phase of this turn of the event loop (setImmediate): after the writes, while the peer is already
// working on the message. The same work, no longer in the call's latency.
//
// One queue per recorder keeps the order (a gateway before its sessions, a session before its executions).
// Whatever observes the queue (flush, close, stats) runs what waits first, so a flush still covers every
// record handed over before it; past MAX_WAITING jobs in one turn they run at once, so that the recorder's
// memory bound (its queue, then its spill file) still holds for a caller that records in a loop.
//
// What may wait: records whose objects nobody changes after handing them over, which the recorders relied
// on already (an execution's payloads are the very objects the gateway forwarded).

/** Jobs held in one turn before they run at once. */
export const MAX_WAITING = 1024;

export class AfterTurn {
  private jobs: (() => void)[] = [];
  private immediate: NodeJS.Immediate | undefined;

  /** Runs `job` after this turn's I/O callbacks (or at the next runAll(), if sooner). */
  add(job: () => void): void {
    this.jobs.push(job);
    if (this.jobs.length >= MAX_WAITING) this.runAll();
    else this.immediate ??= setImmediate(this.runAll);
  }

  /** Runs every waiting job now, in the order they came. */
  readonly runAll = (): void => {
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    this.immediate = undefined;
    const jobs = this.jobs;
    if (jobs.length === 0) return;
    this.jobs = [];
    for (const job of jobs) {
      try {
        job();
      } catch {
        // A recorder's accept never throws (it counts its own failures): one job must not drop the rest.
      }
    }
  };
}

/**
 * The job that encodes `record` redacted, for a recorder's queue: redacted now, so the redaction setting in
 * force when the record was handed over applies even if it changes before the turn ends (the console changes
 * it at any time); encoded after the turn. A redactor that throws gives a job that throws the same error,
 * which the recorder counts as it counts a record it cannot encode.
 */
export function redactNowEncodeLater<R, I>(record: R, redact: ((record: R) => R) | undefined, encode: (record: R) => I): () => I {
  if (!redact) return () => encode(record);
  let redacted: R;
  try {
    redacted = redact(record);
  } catch (err) {
    return () => {
      throw err;
    };
  }
  return () => encode(redacted);
}
