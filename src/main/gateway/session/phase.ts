// One phase of an exchange, run and settled: through the breakpoints when they concern the exchange,
// else straight through the chain. Either way the caller gets the payload to forward, or undefined when
// the exchange is already answered (blocked, mocked, cancelled, or the chain failed) and recorded.
import type { Phase } from '../../../shared/protocol/constants';
import { runPhaseWithBreaks, type PhaseParts } from '../breakpoints/phase-with-breaks';
import type { Exchange } from './exchange';
import { RpcCode } from '../wire/jsonrpc';

export async function runPhase(parts: PhaseParts, ex: Exchange, phase: Phase, payload: unknown): Promise<unknown> {
  if (parts.breaks.armed(ex)) return runPhaseWithBreaks(parts, ex, phase, payload);
  const outcome = await parts.chain.run(ex, phase, payload);
  // Ended meanwhile (session closed, cancelled, deadline): it was answered and recorded then.
  const pending = ex.direction === 'client' ? parts.exchanges.fromClient : parts.exchanges.fromBackend;
  if (phase === 'request' && pending.get(ex.id) !== ex) return undefined;
  if (outcome.kind === 'forward') return outcome.payload;
  if (outcome.kind === 'blocked') parts.exchanges.answerBlocked(ex);
  else if (outcome.kind === 'failed') parts.exchanges.fail(ex, RpcCode.InternalError, outcome.message);
  // 'cancelled': the cancellation already recorded the exchange.
  return undefined;
}
