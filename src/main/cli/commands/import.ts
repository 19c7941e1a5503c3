// `interceptor-console import`: reads a JSONL export into a history database, all or nothing, under
// the same rules as recording: the redaction at rest configured in the data folder's settings is
// applied, and gateway configs lose their credentials.
import { existsSync } from 'node:fs';
import { DEFAULT_MAX_LINE_BYTES } from '../../history/model/portability/line-reader';
import { ImportError, type ImportResult } from '../../history/model/portability/parse-export-lines';
import { defaultDataDir } from '../../services/environment';
import { RedactionSettingsError, savedRedactor } from '../../services/saved-redaction';
import { CliFailure, UsageError, type CliCommand } from '../command';
import { parseFlagsAndPositionals } from '../flags';
import { dbOption, dbUsage, positiveNumber, withHistoryStore } from './history-db';

const usage = `Usage: interceptor-console import [--db FILE] [--max-line-mb N] EXPORT.jsonl

Imports an export (from \`interceptor-console export\`) in one transaction: a bad line (not JSON, an
invalid value such as a startedAt that is not a date or a negative duration, or a line longer than
the bound) stops the import with its line number and nothing is imported. Executions already present
(same id) are skipped. The database is created when it does not exist.

The redaction at rest configured in the console's settings (Settings > History: redacted paths, in
the data folder's settings.json) is applied to every imported execution, as it is when recording;
bearer tokens, environment variables and header values are removed from imported gateway configs.

Options:
${dbUsage(17)}
  --max-line-mb N  the longest line read, in MB (default ${DEFAULT_MAX_LINE_BYTES / 1048576})

Example:
  interceptor-console import --db ~/restored.db history.jsonl`;

export const importCommand: CliCommand = {
  name: 'import',
  summary: 'Import a JSONL export into a history database (all or nothing)',
  usage,
  async run(argv) {
    const { values, positionals } = parseFlagsAndPositionals(argv, { ...dbOption, 'max-line-mb': { type: 'string' } });
    if (positionals.length !== 1) throw new UsageError(`expected one export file, got ${positionals.length}`);
    const maxLineMb = positiveNumber(values['max-line-mb'], '--max-line-mb');
    const file = positionals[0]!;
    if (!existsSync(file)) throw new CliFailure(`no such file: ${file}`);
    const dataDir = defaultDataDir();
    let redactor;
    try {
      redactor = savedRedactor(dataDir);
    } catch (err) {
      if (!(err instanceof RedactionSettingsError)) throw err;
      throw new CliFailure(`${err.message}; nothing was imported.`);
    }
    const options = {
      ...(redactor ? { redactor } : {}),
      ...(maxLineMb !== undefined ? { maxLineBytes: Math.round(maxLineMb * 1048576) } : {}),
    };
    const report = (result: ImportResult) =>
      console.log(
        `imported ${result.executions} execution(s), ${result.sessions} session(s), ${result.gateways} gateway(s)` +
          (result.duplicates > 0 ? `; ${result.duplicates} execution(s) were already present and were skipped` : ''),
      );
    return withHistoryStore(values, { create: true }, async (store) => {
      try {
        report(await store.importFromFile(file, options));
        return 0;
      } catch (err) {
        if (err instanceof ImportError) throw new CliFailure(`${file}: ${err.message} Fix that line (or re-export) and import again.`);
        throw err;
      }
    });
  },
};
