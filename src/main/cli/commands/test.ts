// `interceptor-console test`: a gateway's chain tests (cases saved from Traffic into `<gateway>.tests/`)
// run against its chain with the backend mocked by each case's recorded answer. Exit 0 when every case
// passes, 1 when one fails or cannot run, 2 for bad flags or an invalid config: what CI needs.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatConfigErrors, parseGatewayConfigText } from '../../../shared/config';
import { caseNameOf, failureText, loadCases, runSuite, testsDirFor, toJUnit, type CaseRun } from '../../chain-tests';
import { CliFailure, UsageError, type CliCommand } from '../command';
import { parseFlags } from '../flags';

const usage = `Usage: interceptor-console test --config <gateway.json> [--cases <dir>] [--case <name>]… [--junit <file>]

Runs a gateway's chain tests: each case is a recorded call (saved from Traffic with "Save as test case")
and what the chain must do with it. The request goes through the chain of --config, the backend is
mocked by the answer recorded with the case, and the outcome, the interceptors that decided and the
payloads are compared with the case's expectations. Exit 0 when every case passes, 1 when a case fails
or cannot run (a malformed file, a missing recorded answer, an interceptor the chain no longer has;
the other cases still run), 2 for bad flags or an invalid config.

Options:
  --config <file>     the gateway config whose chain is tested (edit it to test a changed chain)
  --cases <dir>       the cases' folder (default: <config name>.tests beside the config)
  --case <name>       run only this case (its name or file name); may be repeated
  --junit <file>      also write the results as JUnit XML (for CI)
  --live              send each request through the chain to the config's real backend (started for the
                      run) instead of answering with the recorded answer
  --verbose           print the interceptor servers' log lines (on stderr)

Example:
  interceptor-console test --config gateway.json --junit chain-tests.xml`;

function line(run: CaseRun): string {
  const label = run.status === 'passed' ? 'PASS ' : run.status === 'failed' ? 'FAIL ' : 'ERROR';
  const head = `${label} ${run.name} (${run.durationMs} ms)`;
  if (run.status === 'passed') return head;
  if (run.status === 'error') return `${head}\n      ${run.error}`;
  return `${head}\n${failureText(run)
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n')}`;
}

export const testCommand: CliCommand = {
  name: 'test',
  summary: "Run a gateway's chain tests (recorded calls as cases), with JUnit output for CI",
  usage,
  async run(argv) {
    const { values } = parseFlags(argv, {
      config: { type: 'string' },
      cases: { type: 'string' },
      case: { type: 'string', multiple: true },
      junit: { type: 'string' },
      verbose: { type: 'boolean' },
      live: { type: 'boolean' },
    });
    if (!values.config) throw new UsageError('--config is required: the gateway config whose chain the cases test');
    const configPath = resolve(values.config);
    let text: string;
    try {
      text = readFileSync(configPath, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read the config file ${configPath}: ${(err as Error).message}`);
    }
    const parsed = parseGatewayConfigText(text);
    if (!parsed.ok) {
      process.stderr.write(`error: invalid gateway config ${configPath}:\n${formatConfigErrors(parsed.errors)}\n`);
      return 2;
    }
    const dir = values.cases ? resolve(values.cases) : testsDirFor(configPath);
    let loaded = loadCases(dir);
    const only = values.case ?? [];
    if (only.length) {
      const wanted = new Set(only);
      loaded = loaded.filter((c) => (c.case && wanted.has(c.case.name)) || wanted.has(caseNameOf(c.file)));
      if (loaded.length === 0) throw new UsageError(`no case named ${only.map((n) => `"${n}"`).join(', ')} in ${dir}`);
    }
    if (loaded.length === 0) {
      throw new CliFailure(`no chain test cases in ${dir}: save some from Traffic ("Save as test case"), or point --cases at their folder`);
    }
    console.log(`chain tests: ${loaded.length} case${loaded.length === 1 ? '' : 's'} from ${dir}${values.live ? ', live backend' : ''}`);
    const suite = await runSuite(parsed.config, loaded, {
      live: values.live === true,
      // The interceptor servers' own log lines (a request logger's, say) only with --verbose; warnings always.
      log: (l) => {
        if (values.verbose || l.startsWith('warning:')) process.stderr.write(`[chain] ${l}\n`);
      },
      onCase: (run) => console.log(line(run)),
    });
    console.log(`${suite.passed} passed, ${suite.failed} failed, ${suite.errors} could not run (${suite.durationMs} ms)`);
    if (values.junit) {
      const target = resolve(values.junit);
      try {
        writeFileSync(target, toJUnit(suite));
      } catch (err) {
        throw new CliFailure(`cannot write the JUnit report ${target}: ${(err as Error).message}`);
      }
      console.log(`JUnit report: ${target}`);
    }
    return suite.failed + suite.errors === 0 ? 0 : 1;
  },
};
