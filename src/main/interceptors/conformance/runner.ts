// Replays every fixture below a folder, one fresh session each, and reports PASS/FAIL per fixture.
import { loadFixtures } from './fixture';
import type { Fixture } from './fixture';
import { ConformanceSession } from './session';
import { runStep } from './steps';

export interface FixtureReport {
  id: string;
  file: string;
  requirement?: string;
  passed: boolean;
  /** Why it failed: the first failing step (1-based) and what differed. */
  reason?: string;
  durationMs: number;
}

export interface ConformanceSummary {
  passed: number;
  total: number;
  reports: FixtureReport[];
}

export interface RunConformanceOptions {
  /** Called as each fixture finishes, for streaming output. */
  onReport?: (report: FixtureReport) => void;
  /** Per-fixture deadline so one stuck fixture cannot stall the run. Default 30 s. */
  fixtureTimeoutMs?: number;
}

/** Throws FixtureFolderError when the folder is missing or not a folder. */
export async function runConformance(dir: string, options: RunConformanceOptions = {}): Promise<ConformanceSummary> {
  const loaded = await loadFixtures(dir);
  const reports: FixtureReport[] = [];
  for (const item of loaded) {
    const t0 = performance.now();
    let report: FixtureReport;
    if (!item.ok) {
      report = { id: item.id, file: item.file, passed: false, reason: item.error, durationMs: 0 };
    } else {
      const reason = await withDeadline(runFixture(item.fixture), options.fixtureTimeoutMs ?? 30_000, item.fixture.id);
      report = { id: item.fixture.id, file: item.file, passed: reason === undefined, durationMs: performance.now() - t0 };
      if (item.fixture.requirement !== undefined) report.requirement = item.fixture.requirement;
      if (reason !== undefined) report.reason = reason;
    }
    reports.push(report);
    options.onReport?.(report);
  }
  return { passed: reports.filter((r) => r.passed).length, total: reports.length, reports };
}

/** Runs one fixture in a fresh session; returns undefined when every step passes. */
export async function runFixture(fixture: Fixture): Promise<string | undefined> {
  let session: ConformanceSession;
  try {
    session = await ConformanceSession.open(fixture);
  } catch (err) {
    return `setup failed: ${(err as Error).message}`;
  }
  try {
    for (const [i, step] of fixture.steps.entries()) {
      let reason: string | undefined;
      try {
        reason = await runStep(step, fixture, session);
      } catch (err) {
        reason = `${step.op} threw: ${(err as Error).message}`;
      }
      if (reason !== undefined) return `step ${i + 1}/${fixture.steps.length} ${reason}`;
    }
    return undefined;
  } finally {
    await session.close();
  }
}

export function formatReport(r: FixtureReport): string {
  const head = `${r.passed ? 'PASS' : 'FAIL'} ${r.id}${r.requirement ? ` [${r.requirement}]` : ''}`;
  return r.passed ? head : `${head}\n  ${r.reason ?? 'failed'}`;
}

async function withDeadline(p: Promise<string | undefined>, ms: number, id: string): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`fixture ${id} did not finish within ${ms}ms`), ms);
  });
  try {
    return await Promise.race([p, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
