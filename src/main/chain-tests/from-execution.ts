// A recorded execution → a chain test case: the request the client sent, the answer the backend gave
// (the mocked backend gives it again), and what the chain did with it then as the expectation.
import type { ExecutionRecord } from '../../shared/trace/execution';
import type { ChainTrace, TraceStep } from '../../shared/trace/types';
import { CASE_FORMAT, type CaseOutcome, type ChainTestCase, type Decision } from './case-file';

const OUTCOMES: Record<ExecutionRecord['outcome'], CaseOutcome> = { allow: 'allowed', blocked: 'blocked', mutated: 'mutated', error: 'error' };

export function caseOutcome(record: ExecutionRecord): CaseOutcome {
  return OUTCOMES[record.outcome];
}

type Traces = Pick<ExecutionRecord, 'requestTrace' | 'responseTrace'>;

/** Every step of both phases, request phase first, in the order they ran, with its phase. */
export function phasedSteps(record: Traces): { step: TraceStep; phase: ChainTrace['phase'] }[] {
  return [record.requestTrace, record.responseTrace].flatMap((trace) => (trace ? trace.steps.map((step) => ({ step, phase: trace.phase })) : []));
}

/** The interceptors that blocked or changed the payload, request phase first, in the order they ran. */
export function decisionsOf(record: Traces): Decision[] {
  return phasedSteps(record).flatMap(({ step, phase }) =>
    step.outcome === 'blocked' || step.outcome === 'mutated' ? [{ interceptor: step.id, phase, outcome: step.outcome }] : [],
  );
}

/** What every interceptor did (skipped ones left out): shown beside a run's steps. */
export function stepsOf(record: Traces): { interceptor: string; phase: ChainTrace['phase']; outcome: string }[] {
  return phasedSteps(record).flatMap(({ step, phase }) => (step.outcome === 'skipped' ? [] : [{ interceptor: step.id, phase, outcome: step.outcome }]));
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
