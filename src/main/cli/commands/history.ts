// `interceptor-console history`: recorded executions, newest first, as a table or as JSON (each
// execution in full: both chain traces with every step, the blocking interceptor, sink events).
import type { ExecutionOutcome } from '../../../shared/trace/execution';
import type { ExecutionFilter } from '../../history/model/filters';
import type { ExecutionSummary } from '../../history/model/executions';
import { UsageError, type CliCommand } from '../command';
import { parseFlags } from '../flags';
import { dbOption, dbUsage, positiveInt, withHistoryStore } from './history-db';

const usage = `Usage: interceptor-console history [--db FILE] [filters] [--limit N] [--cursor C] [--json]

Lists recorded executions, newest first.

Options:
${dbUsage(20)}
  --gateway G       only this gateway
  --method M        only this method / event, e.g. tools/call
  --target T        only this tool name, resource uri or prompt name
  --outcome O       allow, blocked, mutated or error
  --interceptor I   only executions in which this interceptor ran (server/name or name)
  --blocked-by I    only executions blocked by this interceptor
  --since T         from this time (ISO 8601, e.g. 2025-01-31T12:00:00Z, or epoch ms)
  --until T         before this time
  --search TEXT     words that must all appear in the payloads (word* for a prefix)
  --limit N         at most N executions (default 20, at most 1000)
  --cursor C        continue after the last page (the cursor printed with it)
  --json            print the executions in full as a JSON array (steps, blocking interceptor, sink events)

Examples:
  interceptor-console history --db ~/history.db --outcome blocked --limit 5
  interceptor-console history --method tools/call --search "api key" --json`;

const OUTCOMES = ['allow', 'blocked', 'mutated', 'error'];

function table(items: ExecutionSummary[]): string {
  const rows = items.map((e) => [
    e.startedAt.replace('T', ' ').replace('Z', ''),
    e.gateway,
    e.event,
    e.target ?? '',
    e.outcome,
    e.blockedBy ? `${e.blockedBy.server}/${e.blockedBy.interceptor}${e.blockedBy.phase ? ` (${e.blockedBy.phase})` : ''}` : '',
    `${e.durationMs.toFixed(1)} ms`,
  ]);
  const header = ['time (UTC)', 'gateway', 'method', 'target', 'outcome', 'blocked by', 'duration'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export const historyCommand: CliCommand = {
  name: 'history',
  summary: 'List recorded executions (filters, free-text search, --json for full detail)',
  usage,
  async run(argv) {
    const { values } = parseFlags(argv, {
      ...dbOption,
      gateway: { type: 'string' },
      method: { type: 'string' },
      target: { type: 'string' },
      outcome: { type: 'string' },
      interceptor: { type: 'string' },
      'blocked-by': { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      search: { type: 'string' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (values.outcome !== undefined && !OUTCOMES.includes(values.outcome)) {
      throw new UsageError(`--outcome must be one of ${OUTCOMES.join(', ')}, got "${values.outcome}"`);
    }
    const limit = positiveInt(values.limit, '--limit') ?? 20;
    if (limit > 1000) throw new UsageError(`--limit is at most 1000, got ${limit}; page with --cursor for more`);
    const filter: ExecutionFilter = {};
    if (values.gateway) filter.gateway = values.gateway;
    if (values.method) filter.event = values.method;
    if (values.target) filter.target = values.target;
    if (values.outcome) filter.outcome = values.outcome as ExecutionOutcome;
    if (values.interceptor) filter.interceptor = values.interceptor;
    if (values['blocked-by']) filter.blockedBy = values['blocked-by'];
    if (values.since) filter.since = values.since;
    if (values.until) filter.until = values.until;
    if (values.search) filter.search = values.search;

    return withHistoryStore(values, { read: true }, async (store) => {
      const page = await store.listExecutions(filter, { limit, cursor: values.cursor ?? null });
      if (values.json) {
        const full = [];
        for (const s of page.items) full.push(await store.getExecution(s.id));
        console.log(
          JSON.stringify(
            full.filter((d) => d !== undefined),
            null,
            2,
          ),
        );
      } else if (page.items.length === 0) {
        console.log('No recorded executions match.');
      } else {
        console.log(table(page.items));
      }
      // On stderr, so that --json output stays parseable.
      if (page.nextCursor) console.error(`More: add --cursor ${page.nextCursor}`);
      return 0;
    });
  },
};
