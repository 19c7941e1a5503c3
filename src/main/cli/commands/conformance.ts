// `interceptor-console conformance <dir>`: replays every conformance fixture below a folder.
import { CliFailure, UsageError, type CliCommand } from '../command';
import { parseFlagsAndPositionals } from '../flags';
import { FixtureFolderError, formatReport, runConformance } from '../../interceptors/conformance/index';

const usage = `Usage: interceptor-console conformance <dir> [--fixture-timeout <ms>]

Replays every fixture JSON below <dir> (recursively; manifest.json and schema files are skipped),
each in a fresh session: the fixture's interceptors are registered on real interceptor hosts, the
invoker client connects over an in-memory MCP transport, list/invoke steps go through the client
and apply/chain steps through the chain engine.

Prints "PASS|FAIL <id> [<requirement>]" per fixture (a reason line under each FAIL), then
"N/M fixtures passed". Exit 0 iff all pass, 1 if any fails, 2 if <dir> is missing or has no fixtures.

Options:
  --fixture-timeout <ms>  give up on one fixture after this long (default 30000)`;

export const conformanceCommand: CliCommand = {
  name: 'conformance',
  summary: 'Replay SEP-2624 conformance fixtures against the real host, client and chain engine',
  usage,
  async run(argv) {
    const parsed = parseFlagsAndPositionals(argv, { 'fixture-timeout': { type: 'string' } });
    const [dir, ...extra] = parsed.positionals;
    if (!dir) throw new UsageError('missing <dir>: the folder holding the fixture JSON files');
    if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')} (pass one folder)`);
    const rawTimeout = parsed.values['fixture-timeout'];
    const fixtureTimeoutMs = rawTimeout === undefined ? 30_000 : Number(rawTimeout);
    if (!Number.isInteger(fixtureTimeoutMs) || fixtureTimeoutMs <= 0)
      throw new UsageError(`--fixture-timeout must be a positive integer of ms, got "${rawTimeout}"`);

    let summary;
    try {
      summary = await runConformance(dir, { fixtureTimeoutMs, onReport: (r) => console.log(formatReport(r)) });
    } catch (err) {
      if (err instanceof FixtureFolderError) throw new UsageError(err.message);
      throw new CliFailure(`conformance run failed: ${(err as Error).message}`);
    }
    if (summary.total === 0) throw new UsageError(`no fixture JSON files found below ${dir}; pass the folder that holds them (e.g. test/fixtures/conformance)`);
    console.log(`${summary.passed}/${summary.total} fixtures passed`);
    return summary.passed === summary.total ? 0 : 1;
  },
};
