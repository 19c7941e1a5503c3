// Chain tests ([chain-tests]): recorded calls kept as cases beside a gateway's config and run against
// its chain with the backend mocked, from the console's Tests screen or `interceptor-console test`.
export * from './case-file';
export { caseFromExecution, decisionsOf } from './from-execution';
export { diffJson, parseJsonPath, type JsonDifference } from './json-diff';
export { runCase, type CaseRun, type CaseFailure, type StepChange } from './run-case';
export { runSuite, type SuiteRun, type SuiteOptions } from './suite';
export { toJUnit, failureText } from './junit';
