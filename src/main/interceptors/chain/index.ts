// Public API of the chain engine (Electron-free).
export { ChainRuntime } from './runtime';
export type { ChainRuntimeOptions } from './runtime';
export { orderChain, effectivePriority, compareOrdinal, compatExcludes, compareMutations, planEntry } from './order';
export { OverrideWideningError, InterceptorOverrideSchema, OverrideMapSchema, validateOverrides, narrowHooks, patternCovers, interceptorId } from './overrides';
export type { OverrideIssue } from './overrides';
export { discoverAll, mergeDiscovery, listAll } from './discovery';
export { configErrors, configProblem, usableConfigSchema } from './config-check';
export type { ConfigError } from './config-check';
export type { DiscoveryOutcome, DiscoverOptions } from './discovery';
export { executePlan, ChainClock } from './run';
export type { ExecuteInput } from './run';
export { checkResult } from './invoke-step';
export { MemoryServerHandle, hangUntilAborted } from './memory-handle';
export type { MemoryHandler, MemoryInterceptor, MemoryInvocation } from './memory-handle';
export { ChainCancelledError } from './types';
export { FailureInjector } from './simulate';
export type {
  ChainPlan,
  ChainResult,
  DetachedSinks,
  DiscoveredInterceptor,
  FailureSimulator,
  InterceptorOverride,
  OrderInput,
  OverrideMap,
  PlannedEntry,
  RunOptions,
  SimulatedFailure,
  SkippedEntry,
  StepGate,
  StepTarget,
} from './types';
