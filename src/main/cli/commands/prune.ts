// `interceptor-console prune`: retention by count and/or age, then the space is given back.
import { UsageError, type CliCommand } from '../command';
import { parseFlags } from '../flags';
import { dbOption, dbUsage, positiveInt, positiveNumber, withHistoryStore } from './history-db';

const usage = `Usage: interceptor-console prune [--db FILE] [--max-executions N] [--max-age-days D] [--vacuum]

Deletes the oldest executions beyond N and/or older than D days (with their steps, sink events and
payloads nobody else uses), then returns the freed space to the disk.

Options:
${dbUsage(23)}
  --max-executions N   keep the newest N executions
  --max-age-days D     delete executions started more than D days ago (fractions allowed)
  --vacuum             rewrite the whole file afterwards (smallest file; needs free space and time)

Example:
  interceptor-console prune --db ~/history.db --max-age-days 30`;

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

export const pruneCommand: CliCommand = {
  name: 'prune',
  summary: 'Delete old recorded executions (by count and/or age) and reclaim the space',
  usage,
  async run(argv) {
    const { values } = parseFlags(argv, {
      ...dbOption,
      'max-executions': { type: 'string' },
      'max-age-days': { type: 'string' },
      vacuum: { type: 'boolean' },
    });
    const maxExecutions = positiveInt(values['max-executions'], '--max-executions');
    const maxAgeDays = positiveNumber(values['max-age-days'], '--max-age-days');
    if (maxExecutions === undefined && maxAgeDays === undefined) {
      throw new UsageError('give --max-executions N and/or --max-age-days D: prune deletes nothing without a limit');
    }
    return withHistoryStore(values, {}, async (store) => {
      const result = await store.prune({
        ...(maxExecutions !== undefined ? { maxExecutions } : {}),
        ...(maxAgeDays !== undefined ? { maxAgeDays } : {}),
        fullVacuum: values.vacuum ?? false,
      });
      // A file says what it gave back; a server's autovacuum reclaims the space later.
      if (result.bytesBefore === undefined || result.bytesAfter === undefined) {
        console.log(`deleted ${result.deleted} execution(s), ${result.messagesDeleted} message(s) from PostgreSQL (autovacuum reclaims the space)`);
      } else {
        console.log(
          `deleted ${result.deleted} execution(s), ${result.messagesDeleted} message(s), ${result.payloadsDeleted ?? 0} unused payload(s), ${result.sessionsDeleted ?? 0} session(s); ` +
            `file ${mb(result.bytesBefore)} → ${mb(result.bytesAfter)}`,
        );
      }
      return 0;
    });
  },
};
