// A vitest reporter that writes, when the run ends, every test that needed a retry (JSON, to the file
// named by $IC_RETRY_REPORT): vitest's JSON report counts a test that passed on retry as passed and
// says nothing more, so scripts/run-tests.mjs reads this file to name them in its summary.
import { writeFileSync } from 'node:fs';

export default class RetryReporter {
  retried = [];

  onTestCaseResult(testCase) {
    const { retryCount } = testCase.diagnostic() ?? {};
    if (!retryCount) return;
    this.retried.push({
      file: testCase.module.relativeModuleId,
      name: testCase.fullName,
      retries: retryCount,
      state: testCase.result().state,
    });
  }

  onTestRunEnd() {
    if (process.env.IC_RETRY_REPORT) writeFileSync(process.env.IC_RETRY_REPORT, JSON.stringify(this.retried));
  }
}
