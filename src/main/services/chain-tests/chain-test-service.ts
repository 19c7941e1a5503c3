// The console's side of chain tests ([chain-tests]): a managed gateway's cases live in
// `<dataDir>/gateways/<id>.tests/` (beside its config file, as `gw.tests/` beside `gw.json` for the CLI),
// are saved from recorded executions, and run through the gateway's chain (or a draft of it from the
// Chain screen) with the backend mocked by each case's recorded answer.
import { rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ApiError } from '../../../shared/api/envelope';
import type { GatewayConfig } from '../../../shared/config/schema';
import { SERVER_TO_CLIENT_METHODS } from '../../gateway/replay/replay';
import type { ExecutionRecord } from '../../../shared/trace/execution';
import { caseFromExecution, caseNameOf, loadCases, runSuite, saveCase, testsDirFor, type SuiteRun } from '../../chain-tests';
import type { GatewayManager } from '../gateway-manager';

export interface ChainTestDeps {
  manager: GatewayManager;
  /** The gateway's saved config, or a draft of it checked like one (ChainEditor.configFor). */
  configFor(id: string, draft?: unknown): GatewayConfig;
  /** A recorded execution from the history, or undefined when it is not there. */
  readRecord(executionId: string): Promise<ExecutionRecord | undefined>;
}

export class ChainTestService {
  constructor(private readonly deps: ChainTestDeps) {}

  dir(id: string): string {
    this.deps.manager.status(id); // not_found for an unknown gateway
    return testsDirFor(this.deps.manager.configPath(id));
  }

  list(id: string) {
    const dir = this.dir(id);
    const cases = loadCases(dir).map((c) => {
      const file = basename(c.file);
      if (!c.case) return { file, name: caseNameOf(c.file), error: c.error ?? 'not a chain test case' };
      return {
        file,
        name: c.case.name,
        method: c.case.method,
        outcome: c.case.expect.outcome,
        ...(c.case.recorded?.execution ? { recordedFrom: c.case.recorded.execution } : {}),
      };
    });
    return { dir, cases };
  }

  async save(id: string, executionIds: readonly string[], name?: string) {
    const dir = this.dir(id);
    const saved: { file: string; name: string; executionId: string }[] = [];
    const errors: { executionId: string; error: string }[] = [];
    for (const executionId of executionIds) {
      const record = await this.deps.readRecord(executionId);
      if (!record) {
        errors.push({ executionId, error: 'not in the history (pruned, or recorded in another history database)' });
        continue;
      }
      if (SERVER_TO_CLIENT_METHODS.has(record.event)) {
        errors.push({ executionId, error: `${record.event} goes from the server to the client: chain tests run client requests only` });
        continue;
      }
      const testCase = caseFromExecution(record, executionIds.length === 1 && name ? { name } : {});
      const file = saveCase(dir, testCase);
      saved.push({ file: basename(file), name: testCase.name, executionId });
    }
    return { dir, saved, errors };
  }

  async run(id: string, draft?: Record<string, unknown>, files?: readonly string[], live = false): Promise<SuiteRun & { draft: boolean; live: boolean }> {
    const dir = this.dir(id);
    const config = this.deps.configFor(id, draft);
    let loaded = loadCases(dir);
    if (files) {
      const wanted = new Set(files);
      loaded = loaded.filter((c) => wanted.has(basename(c.file)));
    }
    const suite = await runSuite(config, loaded, { gatewayName: this.deps.manager.get(id).name, live });
    // File paths as the screen shows them: relative to the cases' folder.
    return { ...suite, cases: suite.cases.map((c) => ({ ...c, file: basename(c.file) })), draft: draft !== undefined, live };
  }

  remove(id: string, file: string): { removed: boolean } {
    const dir = this.dir(id);
    if (!loadCases(dir).some((c) => c.file === join(dir, file))) throw new ApiError('not_found', `No case file "${file}" in ${dir}`);
    rmSync(join(dir, file));
    return { removed: true };
  }
}
