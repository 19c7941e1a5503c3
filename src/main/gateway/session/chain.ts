// A session's interception: which chain an exchange runs on (pinned with a lease at its first phase, so a
// hot reload never switches chains mid-exchange), whether a phase has anything to run (decided
// synchronously: the empty-chain hot path never awaits), and running one phase into an outcome that the
// session turns into forwarding, a block answer (A9) or an error.
import type { Phase } from '../../../shared/protocol/constants';
import type { InvocationContext } from '../../../shared/protocol/schemas';
import { ChainCancelledError, type ChainRuntime, type StepGate } from '../../interceptors/chain';
import type { Exchange } from './exchange';
import type { Interception } from '../intercept';

export type PhaseOutcome = { kind: 'forward'; payload: unknown } | { kind: 'blocked' } | { kind: 'cancelled' } | { kind: 'failed'; message: string };

export interface SessionChainOwner {
  readonly id: string;
  readonly principal: string | undefined;
  protocolVersion(): string | undefined;
  currentInterception(): Interception;
}

export class SessionChain {
  private runtime: ChainRuntime | null | undefined;
  /** The Interception the runtime was built from: a config hot swap replaces it and the runtime follows. */
  private runtimeSource?: Interception;

  constructor(private readonly owner: SessionChainOwner) {}

  /** Forgets the runtime (the negotiated protocol version changed: compat, A17). */
  reset(): void {
    this.runtime = undefined;
  }

  /** The interception an exchange runs on: the one it pinned at its first phase, else the current one. */
  interceptionOf(ex: Exchange): Interception {
    return ex.chain?.interception ?? this.owner.currentInterception();
  }

  /** Whether a phase of this exchange has anything to run (no await, no lease when not). */
  needed(ex: Exchange): boolean {
    if (!this.interceptionOf(ex).intercepts(ex.method)) return false;
    return ex.chain ? ex.chain.runtime !== null : this.current() !== null;
  }

  /** The runtime for the current interception (rebuilt after a hot swap). */
  current(): ChainRuntime | null {
    const source = this.owner.currentInterception();
    if (this.runtime === undefined || this.runtimeSource !== source) {
      this.runtime = source.runtimeFor(this.owner.principal, this.owner.protocolVersion());
      this.runtimeSource = source;
    }
    return this.runtime;
  }

  /** Runs one phase; the traces and the block land on the exchange. */
  async run(ex: Exchange, phase: Phase, payload: unknown, stepGate?: StepGate): Promise<PhaseOutcome> {
    // Pinned at the first phase, with a lease: after a hot reload this exchange finishes on the chain it started on.
    const source = this.owner.currentInterception();
    ex.chain ??= { interception: source, runtime: this.current(), release: source.lease() };
    const { interception, runtime } = ex.chain;
    if (!runtime) return { kind: 'forward', payload };
    const context: InvocationContext = {
      principal: this.owner.principal ? { type: 'user', id: this.owner.principal } : { type: 'anonymous' },
      traceId: ex.traceId,
      sessionId: this.owner.id,
      timestamp: new Date().toISOString(),
    };
    // A stepped response chain needs one too: a breakpoint's block stops it between two interceptors.
    if (phase === 'request' || stepGate) ex.abort = new AbortController();
    try {
      // Sinks run off the call's path (A4: they never block): the request phase's while the request goes on
      // to its peer, the response phase's while the answer goes out. Only the call's record waits for them.
      const result = await interception.run(runtime, ex.method, phase, payload, context, ex.abort?.signal, stepGate, true);
      const { decision, finalPayload, trace } = result;
      if (result.sinks) (ex.sinks ??= []).push(result.sinks);
      if (phase === 'request') ex.requestTrace = trace;
      else ex.responseTrace = trace;
      if (decision === 'allow') return { kind: 'forward', payload: trace.modified ? finalPayload : payload };
      ex.blockedBy = trace.blockedBy;
      return { kind: 'blocked' };
    } catch (err) {
      // A breakpoint blocked the call while stepping (it aborts the chain after setting blockedBy).
      if (err instanceof ChainCancelledError) return ex.blockedBy ? { kind: 'blocked' } : { kind: 'cancelled' };
      return { kind: 'failed', message: `Interceptor chain failed for ${ex.method} (${phase}): ${(err as Error).message}` };
    } finally {
      ex.abort = undefined;
    }
  }
}
