// Sink pass (A4): in parallel, only when the validations passed, on a snapshot of the payload at
// that point (request: post-mutation, response: pre-mutation). Awaited, never blocking, never
// mutating: a failure or timeout is recorded as recorded:false with the error kept on the step.
import type { SinkResult } from '../../../../shared/protocol/schemas';
import { invokeEntry } from '../invoke-step';
import type { PlannedEntry } from '../types';
import type { ChainState } from './state';
import { deadlineFailure, pushSkipped, ranStep, throwIfCancelled } from './state';

export async function runSinks(entries: readonly PlannedEntry[], state: ChainState): Promise<void> {
  throwIfCancelled(state);
  if (state.block) {
    const reason = state.block.pass === 'validation' ? 'validation-failed' : 'after-block';
    for (const e of entries) pushSkipped(state, e, reason, `the chain was blocked by ${state.block.info.server}/${state.block.info.interceptor}`);
    return;
  }
  if (state.scope.deadline.passed) {
    for (const e of entries) deadlineFailure(state, e);
    return;
  }
  if (entries.length === 0) return;
  const snapshot = state.payload;
  const invocations = await Promise.all(entries.map((e) => invokeEntry(e, snapshot, state.scope)));
  throwIfCancelled(state);
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
