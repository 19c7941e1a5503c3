// A session's side of breakpoints: whether a call concerns any breakpoint (synchronous, so the relay's hot
// path never awaits for nothing), pausing it at a point of its path with the payload and the traces so far,
// keeping the client from timing out meanwhile (progress notifications where it gave a progressToken), the
// step gate that pauses before each interceptor, and what each decision becomes for the exchange.
import { DEFAULT_PAUSE_TIMEOUT_MS, breakpointLabel, type Breakpoint, type PausePoint } from '../../../shared/config/breakpoints';
import type { Phase } from '../../../shared/protocol/constants';
import { MAX_PAYLOAD_DEPTH, nestedDeeperThan, tooDeepMessage } from '../../../shared/protocol/payload-depth';
import { payloadShape } from '../../../shared/templates/payload-shapes';
import { PAUSE_DECISIONS, type PauseDecision, type PauseDecisionKind, type PauseRecord, type SteppedInterceptor } from '../../../shared/trace/pauses';
import type { BlockInfo, ChainTrace } from '../../../shared/trace/types';
import type { StepGate } from '../../interceptors/chain';
import { targetOf, type Exchange } from '../session/exchange';
import type { JsonRpcId, JsonRpcMessage } from '../wire/jsonrpc';
import type { GatewayBreakpoints } from './breakpoint-set';

/** While paused, a progress notification every this many ms (where the client gave a progressToken). */
export const PAUSE_PROGRESS_EVERY_MS = 5_000;

/** What breakpoints keep on an exchange. */
export interface ExchangeBreaks {
  pauses: PauseRecord[];
  /** Pause at every next stop (each interceptor, each point) until a `continue`. */
  stepping: boolean;
  /** The breakpoint that last paused this call: its timeout and onTimeout apply to the steps after it. */
  breakpoint?: Breakpoint;
  /** A decision replaced the payload somewhere (edit or answer): the execution counts as mutated. */
  edited?: boolean;
}

export type BreakResult =
  | { kind: 'forward'; payload: unknown; edited: boolean }
  | { kind: 'block'; block: BlockInfo }
  | { kind: 'answer'; result: Record<string, unknown> }
  | { kind: 'gone' };

export interface BreaksHost {
  readonly gatewayName: string;
  readonly breakpoints?: GatewayBreakpoints | undefined;
}

interface PauseOptions {
  interceptor?: string;
  stepped?: SteppedInterceptor[];
  signal?: AbortSignal;
  trace?: ChainTrace | undefined;
}

export class SessionBreaks {
  private readonly closed = new AbortController();

  constructor(
    private readonly host: BreaksHost,
    private readonly sessionId: string,
    private readonly principal: string | undefined,
    private readonly send: (message: JsonRpcMessage, related?: JsonRpcId) => void,
  ) {}

  /** The session ended: its open pauses resolve as cancelled. */
  close(): void {
    this.closed.abort(new Error('the session closed'));
  }

  /** Whether this client call may pause anywhere (a step in progress, or some breakpoint that concerns it). */
  armed(ex: Exchange): boolean {
    if (ex.direction !== 'client') return false;
    if (ex.breaks?.stepping) return true;
    const set = this.host.breakpoints;
    if (!set || set.empty) return false;
    return set.concerns({ method: ex.method, target: targetOf(ex.method, ex.requestReceived), principal: this.principal });
  }

  /** Pauses here when a breakpoint matches (or a step is in progress); the result says how to go on. */
  async at(ex: Exchange, point: Exclude<PausePoint, 'before-interceptor'>, payload: unknown, trace?: ChainTrace): Promise<BreakResult> {
    const set = this.host.breakpoints;
    const state = (ex.breaks ??= { pauses: [], stepping: false });
    if (set?.suspended) return { kind: 'forward', payload, edited: false };
    const bp = set?.match(point, { method: ex.method, target: targetOf(ex.method, ex.requestReceived), principal: this.principal, trace });
    if (!bp && !state.stepping) return { kind: 'forward', payload, edited: false };
    if (bp) state.breakpoint = bp;
    const allowed = PAUSE_DECISIONS.filter((d) => d !== 'step' || point !== 'response-after-chain');
    // The client's cancellation aborts ex.abort (see the session); before the chain there is none yet.
    const own = ex.abort === undefined && point.startsWith('request') ? (ex.abort = new AbortController()) : undefined;
    try {
      const { decision, record } = await this.pause(ex, point, payload, allowed, bp, { ...(ex.abort ? { signal: ex.abort.signal } : {}), trace });
      if (!decision) return { kind: 'gone' };
      state.stepping = decision.kind === 'step' || (decision.kind !== 'block' && decision.kind !== 'answer' && bp?.step === true);
      const phase: Phase = point.startsWith('request') ? 'request' : 'response';
      switch (decision.kind) {
        case 'block':
          return { kind: 'block', block: breakpointBlock(ex.method, phase, record, decision.message) };
        case 'answer':
          state.edited = true;
          // On the response side a mock simply replaces the backend's result.
          return phase === 'request' ? { kind: 'answer', result: decision.result } : { kind: 'forward', payload: decision.result, edited: true };
        case 'edit':
          state.edited = true;
          return { kind: 'forward', payload: decision.payload, edited: true };
        default:
          return { kind: 'forward', payload, edited: false };
      }
    } finally {
      if (own && ex.abort === own) ex.abort = undefined;
    }
  }

  /** The gate for a chain run of this exchange while stepping (pauses before each interceptor). */
  stepGate(ex: Exchange): StepGate | undefined {
    const state = ex.breaks;
    if (!state?.stepping) return undefined;
    const stepped: SteppedInterceptor[] = [];
    const inputs = new Map<string, unknown>();
    return {
      before: async (target, payload, signal) => {
        inputs.set(target.id, payload);
        if (!state.stepping || this.host.breakpoints?.suspended) return;
        const { decision, record } = await this.pause(ex, 'before-interceptor', payload, ['continue', 'step', 'block'], undefined, {
          interceptor: target.id,
          stepped: [...stepped],
          signal,
        });
        if (!decision) return; // the chain was aborted: the engine reports it
        if (decision.kind === 'continue') state.stepping = false;
        if (decision.kind === 'block') {
          // Nothing steps after a block (the after-chain point would pause again). SessionChain turns
          // the cancelled run into this block.
          state.stepping = false;
          ex.blockedBy = breakpointBlock(ex.method, ex.responseReceived === undefined ? 'request' : 'response', record, decision.message);
          ex.abort?.abort(new Error('blocked at a breakpoint'));
        }
      },
      after: (target, outcome) => {
        const entry: SteppedInterceptor = { id: target.id, input: inputs.get(target.id), durationMs: outcome.durationMs };
        if (outcome.result !== undefined) entry.result = outcome.result;
        if (outcome.error !== undefined) entry.error = outcome.error;
        stepped.push(entry);
      },
    };
  }

  /** One pause, recorded on the exchange; `decision` is undefined when the call went away meanwhile. */
  private async pause(
    ex: Exchange,
    point: PausePoint,
    payload: unknown,
    allowed: PauseDecisionKind[],
    bp: Breakpoint | undefined,
    options: PauseOptions,
  ): Promise<{ decision: PauseDecision | undefined; record: PauseRecord }> {
    const state = (ex.breaks ??= { pauses: [], stepping: false });
    const settings = bp ?? state.breakpoint;
    const registry = this.host.breakpoints!.pauses;
    const signal = options.signal ? AbortSignal.any([options.signal, this.closed.signal]) : this.closed.signal;
    const phase: Phase =
      point === 'before-interceptor' ? (ex.responseReceived === undefined ? 'request' : 'response') : point.startsWith('request') ? 'request' : 'response';
    const target = targetOf(ex.method, ex.requestReceived);
    const stopProgress = this.keepClientWaiting(ex);
    try {
      const { outcome, record } = await registry.pause({
        view: {
          gateway: this.host.gatewayName,
          sessionId: this.sessionId,
          executionId: ex.traceId,
          method: ex.method,
          ...(target !== undefined ? { target } : {}),
          ...(this.principal !== undefined ? { principal: this.principal } : {}),
          at: point,
          breakpoint: bp ? breakpointLabel(bp) : 'step',
          ...(options.interceptor ? { interceptor: options.interceptor } : {}),
          payload,
          ...(ex.requestTrace ? { requestTrace: ex.requestTrace } : {}),
          ...(ex.responseTrace ? { responseTrace: ex.responseTrace } : {}),
          ...(options.stepped ? { stepped: options.stepped } : {}),
          timeoutMs: settings?.timeoutMs ?? DEFAULT_PAUSE_TIMEOUT_MS,
          onTimeout: settings?.onTimeout ?? 'continue',
          allowed,
        },
        check: (d) => checkDecision(ex.method, phase, d),
        signal,
        onResolved: (r) => state.pauses.push(r),
      });
      return { decision: outcome.decision.kind === 'cancelled' ? undefined : outcome.decision, record };
    } finally {
      stopProgress();
    }
  }

  /** Progress notifications while paused, so that a client that resets its timeout on progress keeps waiting. */
  private keepClientWaiting(ex: Exchange): () => void {
    const token = ex.progressToken;
    if (token === undefined) return () => undefined;
    let progress = 0;
    const tick = () =>
      this.send(
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress: ++progress, message: 'Paused at a breakpoint in the gateway' },
        },
        ex.id,
      );
    tick();
    const timer = setInterval(tick, PAUSE_PROGRESS_EVERY_MS);
    timer.unref();
    return () => clearInterval(timer);
  }
}

/**
 * An edit must be valid params (request side) or a valid result (response side); a mock, a valid result.
 * Neither may nest deeper than a client's params may (also checked by PauseDecisionSchema; here for
 * callers that build a decision without it, such as the terminal's $EDITOR).
 */
export function checkDecision(method: string, phase: Phase, decision: PauseDecision): string[] {
  const replacement = decision.kind === 'edit' ? decision.payload : decision.kind === 'answer' ? decision.result : undefined;
  if (replacement === undefined) return [];
  if (nestedDeeperThan(replacement, MAX_PAYLOAD_DEPTH)) return [tooDeepMessage(decision.kind === 'edit' ? 'the edited payload is' : 'the result is')];
  if (decision.kind === 'edit') return payloadShape(method, phase)?.check(decision.payload) ?? [];
  return payloadShape(method, 'response')?.check(replacement) ?? [];
}

/** A block by a breakpoint, as the client reads it: `Blocked by breakpoint/<label> (<phase>): <message>`. */
export function breakpointBlock(event: string, phase: Phase, record: PauseRecord, message: string): BlockInfo {
  return {
    server: 'breakpoint',
    interceptor: record.breakpoint,
    phase,
    event,
    reason: record.timedOut
      ? `paused at breakpoint "${record.breakpoint}" and timed out (onTimeout: block)`
      : `blocked at breakpoint "${record.breakpoint}" by ${record.by}`,
    messages: [message],
  };
}
