// A recorded execution → a chain test case: the request the client sent, the answer the backend gave
// (the mocked backend gives it again), and what the chain did with it then as the expectation.
import type { ExecutionRecord } from '../../shared/trace/execution';
import type { ChainTrace } from '../../shared/trace/types';
import { CASE_FORMAT, type CaseOutcome, type ChainTestCase, type Decision } from './case-file';

const OUTCOMES: Record<ExecutionRecord['outcome'], CaseOutcome> = { allow: 'allowed', blocked: 'blocked', mutated: 'mutated', error: 'error' };

export function caseOutcome(record: ExecutionRecord): CaseOutcome {
  return OUTCOMES[record.outcome];
}

/** The interceptors that blocked or changed the payload, request phase first, in the order they ran. */
export function decisionsOf(record: Pick<ExecutionRecord, 'requestTrace' | 'responseTrace'>): Decision[] {
  const out: Decision[] = [];
  for (const trace of [record.requestTrace, record.responseTrace]) {
    for (const step of trace?.steps ?? []) {
      if (step.outcome === 'blocked' || step.outcome === 'mutated') out.push({ interceptor: step.id, phase: trace!.phase, outcome: step.outcome });
    }
  }
  return out;
}

/** What every interceptor did (skipped ones left out): shown beside a run's steps. */
export function stepsOf(
  record: Pick<ExecutionRecord, 'requestTrace' | 'responseTrace'>,
): { interceptor: string; phase: ChainTrace['phase']; outcome: string }[] {
  const out: { interceptor: string; phase: ChainTrace['phase']; outcome: string }[] = [];
  for (const trace of [record.requestTrace, record.responseTrace]) {
    for (const step of trace?.steps ?? []) if (step.outcome !== 'skipped') out.push({ interceptor: step.id, phase: trace!.phase, outcome: step.outcome });
  }
  return out;
}

/** The backend's answer to the recorded call, when the call reached it. */
function backendAnswerOf(record: ExecutionRecord): ChainTestCase['backendAnswer'] {
  if (record.responseReceived !== undefined) return { result: record.responseReceived };
  // An error after the request was forwarded, and not made by the chain, is the backend's.
  if (record.requestForwarded !== undefined && record.errorReturned && !record.responseTrace?.blockedBy) return { error: record.errorReturned };
  return undefined;
}

/** A readable default name: method, target and outcome ("tools-call echo blocked"). */
export function defaultCaseName(record: ExecutionRecord): string {
  const target = record.target ? ` ${record.target}` : '';
  return `${record.event}${target} ${caseOutcome(record)}`;
}

export function caseFromExecution(record: ExecutionRecord, options: { name?: string; description?: string } = {}): ChainTestCase {
  const backendAnswer = backendAnswerOf(record);
  const expect: ChainTestCase['expect'] = { outcome: caseOutcome(record), decidedBy: decisionsOf(record) };
  if (record.requestForwarded !== undefined) expect.forwarded = record.requestForwarded;
  if (record.responseReturned !== undefined) expect.returned = record.responseReturned;
  if (record.errorReturned) expect.error = { code: record.errorReturned.code, message: record.errorReturned.message };
  const testCase: ChainTestCase = {
    format: CASE_FORMAT,
    name: options.name?.trim() || defaultCaseName(record),
    method: record.event,
    request: record.requestReceived,
    expect,
    recorded: { gateway: record.gateway, execution: record.id, at: record.startedAt, steps: stepsOf(record) },
  };
  if (options.description) testCase.description = options.description;
  if (backendAnswer) testCase.backendAnswer = backendAnswer;
  return testCase;
}
