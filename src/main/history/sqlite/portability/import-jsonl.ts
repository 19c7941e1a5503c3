// Import of a JSONL export: all or nothing, in one transaction. The first bad line (not JSON, an
// invalid value, longer than the line bound) stops it with its line number and nothing is written.
// Executions already in the file (same id) are skipped. What is written obeys the same rules as what
// the recorder writes: the configured redaction at rest is applied to every execution, and a gateway
// config line loses its credentials (tokens, env and header values) exactly as a recorded one does.
import type Database from 'better-sqlite3';
import type { ExecutionRecord, SessionRecord } from '../../../../shared/trace/execution';
import { withoutConfigSecrets } from '../../../../shared/config/secrets';
import { encodeExecution, encodeGateway, encodeSession } from '../../model/encode/encode';
import { ExecutionInserter } from '../sql/inserter';
import { DEFAULT_MAX_LINE_BYTES, fileLines, stringLines } from '../../model/portability/line-reader';
import { ImportError, parseExportLines, type ImportOptions, type ImportResult } from '../../model/portability/parse-export-lines';

export { ImportError, type ImportOptions, type ImportResult };

export function importFromFile(db: Database.Database, path: string, options: ImportOptions = {}): ImportResult {
  return importLines(db, fileLines(path, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES), options);
}

export function importFromString(db: Database.Database, text: string, options: ImportOptions = {}): ImportResult {
  return importLines(db, stringLines(text, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES), options);
}

export function importLines(db: Database.Database, lines: Iterable<string>, options: Pick<ImportOptions, 'redactor'> = {}): ImportResult {
  const inserter = new ExecutionInserter(db);
  const result: ImportResult = { executions: 0, duplicates: 0, sessions: 0, gateways: 0 };
  const run = db.transaction(() => {
    inserter.beginBatch();
    for (const { lineNo, line } of parseExportLines(lines)) {
      try {
        if (line.type === 'gateway') {
          const config = line.config === undefined ? undefined : withoutConfigSecrets(line.config);
          inserter.write({ ...encodeGateway(line.name, config, line.updatedAt), createdAt: line.createdAt });
          result.gateways++;
        } else if (line.type === 'session') {
          inserter.write(encodeSession(line.session as SessionRecord));
          result.sessions++;
        } else {
          const record = line.execution as unknown as ExecutionRecord;
          const outcome = inserter.write(encodeExecution(options.redactor ? options.redactor.execution(record) : record));
          if (outcome === 'written') result.executions++;
          else result.duplicates++;
        }
      } catch (err) {
        if (err instanceof ImportError) throw err;
        throw new ImportError(lineNo, (err as Error).message);
      }
    }
    inserter.endBatch();
  });
  run.immediate();
  return result;
}
