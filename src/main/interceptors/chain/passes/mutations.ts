// Mutation pass: sequential in plan order, each mutator on a snapshot of the current payload
// (payloads are immutable values in the engine, see run.ts). Active + modified:true replaces the payload; audit results are shadowed (the next
// mutator sees the unchanged payload). A fail-closed failure blocks with mutation_failed and the
// run discards every tentative change (S4 atomicity); with fail-open earlier changes persist.
import type { MutationResult } from '../../../../shared/protocol/schemas';
import { invokeEntry } from '../invoke-step';
import type { PlannedEntry } from '../types';
import type { ChainState } from './state';
import { deadlineFailure, failureReason, failureStatus, pushSkipped, ranStep, routeFailure, setBlock, throwIfCancelled } from './state';

export async function runMutations(entries: readonly PlannedEntry[], state: ChainState): Promise<void> {
  for (const entry of entries) {
    throwIfCancelled(state);
    if (state.block) {
      pushSkipped(state, entry, 'after-block', `the chain was blocked by ${state.block.info.server}/${state.block.info.interceptor}`);
      continue;
    }
    if (state.scope.deadline.passed) {
      deadlineFailure(state, entry);
      continue;
    }
    const input = state.payload;
    const inv = await invokeEntry(entry, input, state.scope);
    throwIfCancelled(state);
    const step = ranStep(entry, input, inv);
    state.steps.push(step);
    if (inv.error) {
      if (routeFailure(entry, step)) {
        setBlock(state, entry, failureStatus(state, inv.error, 'mutation'), 'mutation', failureReason(entry, inv.error), [inv.error.message]);
      }
      continue;
    }
    const result = inv.result as MutationResult;
    if (!result.modified) step.outcome = 'unchanged';
    else if (entry.mode === 'audit') step.outcome = 'shadow';
    else {
      step.outcome = 'mutated';
      state.payload = result.payload;
      state.modified = true;
    }
  }
}
