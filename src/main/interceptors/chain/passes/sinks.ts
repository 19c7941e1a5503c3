// Sink pass (A4): in parallel, only when the validations passed, on a snapshot of the payload at
// that point (request: post-mutation, response: pre-mutation). Awaited, never blocking, never
// mutating: a failure or timeout is recorded as recorded:false with the error kept on the step.
import type { SinkResult } from '../../../../shared/protocol/schemas';
import type { PlannedEntry } from '../types';
import type { ChainState } from './state';
import { invokeInParallel, ranStep } from './state';

export async function runSinks(entries: readonly PlannedEntry[], state: ChainState): Promise<void> {
  const blockedReason = state.block?.pass === 'validation' ? 'validation-failed' : 'after-block';
  const ran = await invokeInParallel(entries, state, blockedReason);
  if (!ran) return;
  const { snapshot, invocations } = ran;
  entries.forEach((entry, i) => {
    const inv = invocations[i]!;
    const step = ranStep(entry, snapshot, inv);
    if (inv.error) {
      const failed: SinkResult = { type: 'sink', interceptor: entry.name, phase: state.scope.phase, recorded: false };
      step.result = failed;
      step.outcome = 'not-recorded';
    } else {
      step.outcome = (inv.result as SinkResult).recorded ? 'recorded' : 'not-recorded';
    }
    state.steps.push(step);
  });
}
