// Runs one chain test case: the recorded request through the gateway's current chain with the backend
// mocked by the recorded answer (gateway/replay/replay-chain.ts, the same code a chain-only replay runs), then
// the outcome, the deciding interceptors and the payloads compared with what the case expects.
import type { ExecutionRecord } from '../../shared/trace/execution';
import { replayChainOnly } from '../gateway/replay/replay-chain';
import type { ReplayClient, ReplayHost } from '../gateway/replay/replay';
import type { ChainTestCase, Decision } from './case-file';
import { caseOutcome, decisionsOf, phasedSteps, stepsOf } from './from-execution';
import { diffJson, parseJsonPath, type JsonDifference } from './json-diff';

export interface CaseFailure {
  /** What differs: the outcome, the deciding interceptors, the forwarded params, the returned result or error. */
  what: 'outcome' | 'decidedBy' | 'forwarded' | 'returned' | 'error';
  message: string;
  differences?: JsonDifference[];
}

/** One interceptor whose step went differently than when the case was recorded (or that is new or gone). */
export interface StepChange {
  interceptor: string;
  phase: 'request' | 'response';
  before?: string;
  after?: string;
}

export interface CaseRun {
  name: string;
  file: string;
  status: 'passed' | 'failed' | 'error';
  /** For 'error': why the case could not run (the rest of the suite still does). */
  error?: string;
  failures: CaseFailure[];
  steps: StepChange[];
  /** Interceptors the chain left out of this run for a reason worth saying (disabled, config invalid...). */
  skipped?: { interceptor: string; phase: 'request' | 'response'; reason: string; detail?: string }[];
  /** What the run produced, for the Tests screen's detail. */
  actual?: { outcome: string; decidedBy: Decision[]; forwarded?: unknown; returned?: unknown; error?: { code: number; message: string } };
  durationMs: number;
}

/** `server/name` of every interceptor the chain has now (after discovery), for "named but gone" errors. */
export type ChainInterceptors = ReadonlySet<string>;

/**
 * `live`: a replay session on the gateway's real backend; the request then goes through the chain to that
 * backend (as a replay does) instead of the recorded answer standing in for it.
 */
export async function runCase(host: ReplayHost, testCase: ChainTestCase, file: string, chain: ChainInterceptors, live?: ReplayClient): Promise<CaseRun> {
  const started = performance.now();
  const done = (run: Omit<CaseRun, 'name' | 'file' | 'durationMs'>): CaseRun => ({
    name: testCase.name,
    file,
    ...run,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
  });
  const problem = cannotRun(testCase, chain, live !== undefined);
  if (problem) return done({ status: 'error', error: problem, failures: [], steps: [] });

  let record: ExecutionRecord;
  try {
    record = live
      ? await live.send(testCase.method, testCase.request, `test:${testCase.name}`)
      : await replayChainOnly(host, null, {
          method: testCase.method,
          params: testCase.request,
          ...(testCase.backendAnswer && 'result' in testCase.backendAnswer ? { recordedResponse: testCase.backendAnswer.result } : {}),
          ...(testCase.backendAnswer && 'error' in testCase.backendAnswer ? { recordedError: testCase.backendAnswer.error } : {}),
          replayOf: `test:${testCase.name}`,
          ...(testCase.principal ? { principal: testCase.principal } : {}),
          ...(testCase.protocolVersion ? { protocolVersion: testCase.protocolVersion } : {}),
        });
  } catch (err) {
    return done({ status: 'error', error: `the chain could not run the case: ${(err as Error).message}`, failures: [], steps: [] });
  }
  const actual = {
    outcome: caseOutcome(record),
    decidedBy: decisionsOf(record),
    ...(record.requestForwarded !== undefined ? { forwarded: record.requestForwarded } : {}),
    ...(record.responseReturned !== undefined ? { returned: record.responseReturned } : {}),
    ...(record.errorReturned ? { error: { code: record.errorReturned.code, message: record.errorReturned.message } } : {}),
  };
  const failures = compare(testCase, actual);
  const skipped = skippedOf(record);
  return done({
    status: failures.length ? 'failed' : 'passed',
    failures,
    steps: stepChanges(testCase, record),
    ...(skipped.length ? { skipped } : {}),
    actual,
  });
}

/** Why a case cannot be run as it stands, in words that say what to do; undefined when it can. */
function cannotRun(testCase: ChainTestCase, chain: ChainInterceptors, live: boolean): string | undefined {
  for (const path of testCase.expect.ignore ?? []) {
    try {
      parseJsonPath(path);
    } catch (err) {
      return `expect.ignore: ${(err as Error).message}`;
    }
  }
  const gone = (testCase.expect.decidedBy ?? []).map((d) => d.interceptor).filter((id) => !chain.has(id));
  if (gone.length) {
    return `the chain no longer has ${[...new Set(gone)].join(', ')}, which this case expects to decide: edit expect.decidedBy, or add the interceptor back`;
  }
  // A response-phase expectation needs the backend's answer to run the response phase on.
  const needsAnswer = testCase.expect.returned !== undefined || (testCase.expect.decidedBy ?? []).some((d) => d.phase === 'response');
  if (needsAnswer && !live && !testCase.backendAnswer && testCase.expect.outcome !== 'blocked') {
    return 'the case has no recorded backend answer (backendAnswer) to run the response phase on: save it again from a call that reached the backend, add backendAnswer, or run it live';
  }
  return undefined;
}

function compare(testCase: ChainTestCase, actual: NonNullable<CaseRun['actual']>): CaseFailure[] {
  const { expect } = testCase;
  const ignore = expect.ignore ?? [];
  const out: CaseFailure[] = [];
  if (expect.outcome !== actual.outcome) out.push({ what: 'outcome', message: `expected ${expect.outcome}, got ${actual.outcome}` });
  if (expect.decidedBy && !sameDecisions(expect.decidedBy, actual.decidedBy)) {
    out.push({ what: 'decidedBy', message: `expected ${describe(expect.decidedBy)}, got ${describe(actual.decidedBy)}` });
  }
  for (const what of ['forwarded', 'returned'] as const) {
    if (expect[what] === undefined) continue;
    if (actual[what] === undefined) {
      out.push({ what, message: what === 'forwarded' ? 'nothing was forwarded to the backend' : 'no result was returned to the client' });
      continue;
    }
    const differences = diffJson(expect[what], actual[what], ignore);
    if (differences.length) {
      const label = what === 'forwarded' ? 'the params the backend gets' : 'the result the client gets';
      out.push({ what, message: `${label} differ at ${differences.map((d) => d.path).join(', ')}`, differences });
    }
  }
  if (expect.error) {
    if (!actual.error) out.push({ what: 'error', message: `expected JSON-RPC error ${expect.error.code}, got none` });
    else if (actual.error.code !== expect.error.code || (expect.error.message !== undefined && actual.error.message !== expect.error.message)) {
      out.push({
        what: 'error',
        message: `expected error ${expect.error.code} "${expect.error.message ?? '…'}", got ${actual.error.code} "${actual.error.message}"`,
      });
    }
  }
  return out;
}

function sameDecisions(a: readonly Decision[], b: readonly Decision[]): boolean {
  return a.length === b.length && a.every((d, i) => d.interceptor === b[i]!.interceptor && d.phase === b[i]!.phase && d.outcome === b[i]!.outcome);
}

function describe(decisions: readonly Decision[]): string {
  return decisions.length ? decisions.map((d) => `${d.interceptor} ${d.outcome} (${d.phase})`).join(', ') : 'no interceptor deciding';
}

/** Each interceptor's step now against when recorded, where they differ (the per-step diff). */
function stepChanges(testCase: ChainTestCase, record: ExecutionRecord): StepChange[] {
  const before = testCase.recorded?.steps;
  if (!before) return [];
  const key = (s: { interceptor: string; phase: string }) => `${s.phase} ${s.interceptor}`;
  const now = new Map(stepsOf(record).map((s) => [key(s), s]));
  const then = new Map(before.map((s) => [key(s), s]));
  const out: StepChange[] = [];
  for (const [k, s] of then) {
    const after = now.get(k)?.outcome;
    if (after !== s.outcome) out.push({ interceptor: s.interceptor, phase: s.phase, before: s.outcome, ...(after ? { after } : {}) });
  }
  for (const [k, s] of now) if (!then.has(k)) out.push({ interceptor: s.interceptor, phase: s.phase, after: s.outcome });
  return out;
}

/** Steps left out for a reason other than not hooking this event or phase: often why a case fails. */
function skippedOf(record: ExecutionRecord): NonNullable<CaseRun['skipped']> {
  return phasedSteps(record).flatMap(({ step, phase }) =>
    !step.skipped || step.skipped === 'event-not-hooked' || step.skipped === 'other-phase'
      ? []
      : [{ interceptor: step.id, phase, reason: step.skipped, ...(step.skipDetail ? { detail: step.skipDetail } : {}) }],
  );
}
