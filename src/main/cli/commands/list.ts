// `interceptor-console list`: the interceptors one server serves, as the JSON list result.
import { descriptorToWire } from '../../../shared/protocol/wire';
import { configProblem } from '../../interceptors/chain';
import { CliFailure, UsageError, type CliCommand } from '../command';
import { parseFlags } from '../flags';
import { connectionFromFlags, connectTimeoutFromFlags, serverTargetOptions, serverTargetUsage, withServerClient } from '../server-target';

const usage = `Usage: interceptor-console list (--server-command "<cmd> <args…>" | --server-url <url>) [--event <event>]

Connects to one interceptor server, drains interceptors/list (all pages) and prints
{"interceptors":[…]} as JSON on stdout. Descriptors the server got wrong are skipped and
reported on stderr.

Options:
  --event <event>                  only interceptors hooked on this event (tools/call) or pattern ("*", "tools/*")

${serverTargetUsage}

Example:
  interceptor-console list --server-command "interceptor-console serve-samples" --event tools/call`;

export const listCommand: CliCommand = {
  name: 'list',
  summary: 'List the interceptors an interceptor server serves (interceptors/list)',
  usage,
  async run(argv) {
    const { values } = parseFlags(argv, { ...serverTargetOptions, event: { type: 'string' } });
    const connection = connectionFromFlags(values);
    const timeout = connectTimeoutFromFlags(values);
    const event = values.event;
    if (event === '') throw new UsageError('--event needs an event such as tools/call (or a pattern: "*", "tools/*")');
    const result = await withServerClient(connection, timeout, async (client) => {
      try {
        return await client.list({ event });
      } catch (err) {
        throw new CliFailure(`${(err as Error).message}\n  → is this an interceptor server? Its status: ${client.status.lastError ?? client.status.state}`);
      }
    });
    for (const s of result.skipped) console.error(`warning: skipped ${s.name ? `'${s.name}'` : 'a descriptor'}: ${s.reason}`);
    // What a gateway would make of each one with no config set (no overrides here): say it before it bites.
    for (const d of result.interceptors) {
      const problem = configProblem(d, undefined);
      if (problem) {
        console.error(
          `config error: '${d.name}': ${problem}; a gateway skips it (does not invoke it) until its override sets a valid config, e.g. overrides["<server>/${d.name}"].config`,
        );
      }
    }
    console.log(JSON.stringify({ interceptors: result.interceptors.map(descriptorToWire) }, null, 2));
    return 0;
  },
};
