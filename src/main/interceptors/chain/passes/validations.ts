// Validation pass: every validator runs in parallel on the same snapshot; the decision is taken
// only after all have finished and walks them in plan order, so it never depends on which one
// answered first. A3: valid:false blocks unless its severity is warn or info (a missing or unknown
// severity is an error). Audit validators never block; failOpen never turns valid:false into allow.
import type { ValidationResult } from '../../../../shared/protocol/schemas';
import type { PlannedEntry } from '../types';
import type { ChainState } from './state';
import { failureReason, failureStatus, invokeInParallel, ranStep, routeFailure, setBlock } from './state';

export async function runValidations(entries: readonly PlannedEntry[], state: ChainState): Promise<void> {
  const ran = await invokeInParallel(entries, state, 'after-block');
  if (!ran) return;
  const { snapshot, invocations } = ran;
  entries.forEach((entry, i) => {
    const inv = invocations[i]!;
    const step = ranStep(entry, snapshot, inv);
    state.steps.push(step);
    if (inv.error) {
      if (routeFailure(entry, step)) {
        setBlock(state, entry, failureStatus(state, inv.error, 'validation'), 'validation', failureReason(entry, inv.error), [inv.error.message]);
      }
      return;
    }
    const result = inv.result as ValidationResult;
    const severity = effectiveSeverity(result);
    if (entry.mode === 'active') countMessages(state, result, severity);
    if (result.valid) step.outcome = 'allowed';
    else if (severity !== 'error') step.outcome = 'warned';
    else if (entry.mode === 'audit') step.outcome = 'shadow';
    else {
      step.outcome = 'blocked';
      const messages = (result.messages ?? []).map((m) => m.message);
      const how =
        result.severity === undefined
          ? 'no severity, treated as error'
          : result.severity === 'error'
            ? 'severity error'
            : `unknown severity '${result.severity}', treated as error`;
      setBlock(state, entry, 'validation_failed', 'validation', `validation interceptor ${entry.id} reported invalid (${how})`, messages);
    }
  });
}

/** A3: only warn and info are non-blocking; anything else on valid:false is an error. */
export function effectiveSeverity(result: ValidationResult): 'error' | 'warn' | 'info' {
  if (result.valid) return result.severity === 'warn' || result.severity === 'info' ? result.severity : 'info';
  return result.severity === 'warn' || result.severity === 'info' ? result.severity : 'error';
}

function countMessages(state: ChainState, result: ValidationResult, severity: 'error' | 'warn' | 'info'): void {
  const messages = result.messages ?? [];
  if (messages.length === 0) {
    if (!result.valid) bump(state, severity);
    return;
  }
  for (const m of messages) bump(state, m.severity);
}

function bump(state: ChainState, severity: string): void {
  if (severity === 'warn') state.summary.warnings++;
  else if (severity === 'info') state.summary.infos++;
  else state.summary.errors++;
}
