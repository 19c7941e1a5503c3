// One phase of a client call when breakpoints concern it: pause before the chain, run the chain (stepped
// when a step is in progress), pause after it (where a chain outcome such as "blocked by pii-validator" can
// match), and turn each decision into what the session does next. Returns the payload to forward, or
// undefined when the exchange was answered here (blocked, mocked) or went away.
import type { Phase } from '../../../shared/protocol/constants';
import { asEraResult } from '../session/blocked';
import type { Exchange } from '../session/exchange';
import { RpcCode, resultResponse, type JsonRpcId, type JsonRpcMessage } from '../wire/jsonrpc';
import type { SessionChain } from '../session/chain';
import type { SessionExchanges } from '../session/exchanges';
import type { BreakResult, SessionBreaks } from './session-breaks';

export interface PhaseParts {
  breaks: SessionBreaks;
  chain: SessionChain;
  exchanges: SessionExchanges;
  send(message: JsonRpcMessage, related?: JsonRpcId): void;
  protocolVersion(): string | undefined;
}

export async function runPhaseWithBreaks(parts: PhaseParts, ex: Exchange, phase: Phase, payload: unknown): Promise<unknown> {
  const { breaks, chain, exchanges } = parts;
  // A request cancelled (or its session closed) meanwhile was answered and recorded then.
  const gone = () => phase === 'request' && exchanges.fromClient.get(ex.id) !== ex;

  const before = await breaks.at(ex, phase === 'request' ? 'request-before-chain' : 'response-before-chain', payload);
  if (gone() || !settle(parts, ex, before)) return undefined;
  let current = (before as Extract<BreakResult, { kind: 'forward' }>).payload;

  const outcome = chain.needed(ex) ? await chain.run(ex, phase, current, breaks.stepGate(ex)) : ({ kind: 'forward', payload: current } as const);
  if (gone()) return undefined;
  if (outcome.kind === 'cancelled') return undefined; // the cancellation recorded it
  if (outcome.kind === 'failed') {
    exchanges.fail(ex, RpcCode.InternalError, outcome.message);
    return undefined;
  }
  if (outcome.kind === 'forward') current = outcome.payload;

  const trace = phase === 'request' ? ex.requestTrace : ex.responseTrace;
  const after = await breaks.at(ex, phase === 'request' ? 'request-after-chain' : 'response-after-chain', current, trace);
  if (gone()) return undefined;
  if (outcome.kind === 'blocked' && after.kind === 'forward' && !after.edited) {
    // Continue (or a timeout) after a block: the chain's block stands. An edit overrides it.
    exchanges.answerBlocked(ex);
    return undefined;
  }
  if (after.kind === 'forward' && after.edited) delete ex.blockedBy;
  if (!settle(parts, ex, after)) return undefined;
  return (after as Extract<BreakResult, { kind: 'forward' }>).payload;
}

/** Applies a block or a mock answer (true: go on with the forward payload). */
function settle(parts: PhaseParts, ex: Exchange, result: BreakResult): boolean {
  if (result.kind === 'forward') return true;
  if (result.kind === 'gone') {
    // A response held at a pause has left the pending map: the session's close cannot record it, so here.
    if (ex.responseReceived !== undefined && ex.responseReturned === undefined && !ex.errorReturned) {
      ex.errorReturned = { code: RpcCode.BackendUnavailable, message: 'The client session closed while the response was paused at a breakpoint' };
      parts.exchanges.record(ex);
    }
    return false;
  }
  if (result.kind === 'block') {
    ex.blockedBy = result.block;
    parts.exchanges.answerBlocked(ex);
    return false;
  }
  // A mock answer to the request: the backend is never called.
  parts.exchanges.fromClient.delete(ex.id);
  ex.responseReturned = result.result;
  parts.send(asEraResult(resultResponse(ex.id, result.result), parts.protocolVersion()), ex.id);
  parts.exchanges.record(ex);
  return false;
}
