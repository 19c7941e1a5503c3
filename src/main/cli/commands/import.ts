// `interceptor-console import`: reads a JSONL export into a history database, all or nothing.
import { existsSync } from 'node:fs';
import { importFromFile, ImportError } from '../../store';
import { CliFailure, UsageError, type CliCommand } from '../command';
import { parseFlagsAndPositionals } from '../flags';
import { dbOption, dbUsage, openHistory } from './history-db';

const usage = `Usage: interceptor-console import [--db FILE] EXPORT.jsonl

Imports an export (from \`interceptor-console export\`) in one transaction: a bad line stops the
import with its line number and nothing is imported. Executions already present (same id) are
skipped. The database is created when it does not exist.

Options:
${dbUsage(17)}

Example:
  interceptor-console import --db ~/restored.db history.jsonl`;

export const importCommand: CliCommand = {
  name: 'import',
  summary: 'Import a JSONL export into a history database (all or nothing)',
  usage,
  async run(argv) {
    const { values, positionals } = parseFlagsAndPositionals(argv, dbOption);
    if (positionals.length !== 1) throw new UsageError(`expected one export file, got ${positionals.length}`);
    const file = positionals[0]!;
    if (!existsSync(file)) throw new CliFailure(`no such file: ${file}`);
    const store = openHistory(values.db, { create: true });
    try {
      const result = importFromFile(store.db, file);
      console.log(
        `imported ${result.executions} execution(s), ${result.sessions} session(s), ${result.gateways} gateway(s)` +
          (result.duplicates > 0 ? `; ${result.duplicates} execution(s) were already present and were skipped` : ''),
      );
      return 0;
    } catch (err) {
      if (err instanceof ImportError) throw new CliFailure(`${file}: ${err.message} Fix that line (or re-export) and import again.`);
      throw err;
    } finally {
      store.close();
    }
  },
};
