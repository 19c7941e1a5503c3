// Conformance runner: replays SEP-2624 conformance fixtures over real hosts, clients and the chain engine.
export { runConformance, runFixture, formatReport } from './runner';
export type { ConformanceSummary, FixtureReport, RunConformanceOptions } from './runner';
export { loadFixtures, FixtureSchema, FixtureFolderError } from './fixture';
export type { Fixture, FixtureStep, LoadedFixture } from './fixture';
export { ConformanceSession, DEFAULT_SERVER } from './session';
export { bindBehavior, BehaviorError } from './behaviors';
