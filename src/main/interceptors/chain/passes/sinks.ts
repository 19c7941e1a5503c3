// Sink pass (A4): in parallel, only when the validations passed, on a snapshot of the payload at
// that point (request: post-mutation, response: pre-mutation). Never blocking, never mutating: a
// failure or timeout is recorded as recorded:false with the error kept on the step. Awaited by the
// run, or detached (RunOptions.detachSinks): then the run goes on at once and the steps are put
// where the pass stands in the trace when the sinks answer.
import type { SinkResult } from '../../../../shared/protocol/schemas';
import type { PlannedEntry } from '../types';
import type { ChainState } from './state';
import { invokeInParallel, ranStep } from './state';

export async function runSinks(entries: readonly PlannedEntry[], state: ChainState, detached = false): Promise<void> {
  const blockedReason = state.block?.pass === 'validation' ? 'validation-failed' : 'after-block';
  // Where the pass stands in the trace: a detached pass answers after later passes pushed their steps.
  const at = state.steps.length;
  const ran = await invokeInParallel(entries, state, blockedReason, detached);
  if (!ran) return;
  const { snapshot, invocations } = ran;
  const steps = entries.map((entry, i) => {
    const inv = invocations[i]!;
    const step = ranStep(entry, snapshot, inv);
    if (inv.error) {
      const failed: SinkResult = { type: 'sink', interceptor: entry.name, phase: state.scope.phase, recorded: false };
      step.result = failed;
      step.outcome = 'not-recorded';
    } else {
      step.outcome = (inv.result as SinkResult).recorded ? 'recorded' : 'not-recorded';
    }
    return step;
  });
  state.steps.splice(at, 0, ...steps);
}
