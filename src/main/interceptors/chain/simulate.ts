// Failure simulation for the Playground: "force the next invocation of X to time out or crash".
// The engine only knows the per-run `simulate` callback; this keeps the pending forced failures
// (keyed `server/name`) and consumes each one when it fires.
import type { FailureSimulator, SimulatedFailure } from './types';

export class FailureInjector {
  private readonly pending = new Map<string, { kind: SimulatedFailure; remaining: number }>();

  /** Forces the next `times` invocations of `id` (`server/name`) to fail as `kind`. */
  force(id: string, kind: SimulatedFailure, times = 1): void {
    if (times <= 0) this.pending.delete(id);
    else this.pending.set(id, { kind, remaining: times });
  }

  clear(id?: string): void {
    if (id === undefined) this.pending.clear();
    else this.pending.delete(id);
  }

  list(): { id: string; kind: SimulatedFailure; remaining: number }[] {
    return [...this.pending].map(([id, p]) => ({ id, ...p }));
  }

  /** Pass as RunOptions.simulate; undefined when nothing is pending (the hot path pays nothing). */
  get simulator(): FailureSimulator | undefined {
    if (this.pending.size === 0) return undefined;
    return ({ id }) => {
      const p = this.pending.get(id);
      if (!p) return undefined;
      if (--p.remaining <= 0) this.pending.delete(id);
      return p.kind;
    };
  }
}
