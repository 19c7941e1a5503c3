// Import of a JSONL export: all or nothing, in one transaction. The first bad line (not JSON, an
// invalid value, longer than the line bound) stops it with its line number and nothing is written.
// Executions already in the file (same id) are skipped. What is written obeys the same rules as what
// the recorder writes: the configured redaction at rest is applied to every execution, and a gateway
// config line loses its credentials (tokens, env and header values) exactly as a recorded one does.
import type Database from 'better-sqlite3';
import type { ExecutionRecord, SessionRecord } from '../../../../shared/trace/execution';
import { withoutConfigSecrets } from '../../../../shared/config/secrets';
import type { Redactor } from '../../model/redaction/redactor';
import { encodeExecution, encodeGateway, encodeSession } from '../../model/encode/encode';
import { ExecutionInserter } from '../sql/inserter';
import { DataLineSchema, EXPORT_FORMAT, HeaderLineSchema, type DataLine } from '../../model/portability/line-schema';
import { DEFAULT_MAX_LINE_BYTES, fileLines, LineTooLongError, stringLines } from '../../model/portability/line-reader';

export class ImportError extends Error {
  override name = 'ImportError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}. Nothing was imported.`);
  }
}

export interface ImportResult {
  executions: number;
  /** Executions whose id was already in the file: skipped. */
  duplicates: number;
  sessions: number;
  gateways: number;
}

export interface ImportOptions {
  /** Redaction at rest, as configured for recording: applied to every execution before it is written. */
  redactor?: Redactor;
  /** Longest line accepted (bytes); a longer one stops the import, naming it. Default 16 MiB. */
  maxLineBytes?: number;
}

export function importFromFile(db: Database.Database, path: string, options: ImportOptions = {}): ImportResult {
  return importLines(db, fileLines(path, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES), options);
}

export function importFromString(db: Database.Database, text: string, options: ImportOptions = {}): ImportResult {
  return importLines(db, stringLines(text, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES), options);
}

/** The lines, with a line over the bound turned into the import's own error. */
function* bounded(lines: Iterable<string>): Generator<string> {
  try {
    yield* lines;
  } catch (err) {
    if (err instanceof LineTooLongError) {
      throw new ImportError(err.line, `longer than ${err.maxBytes} bytes, the most an import reads in one line (raise it with --max-line-mb)`);
    }
    throw err;
  }
}

function describeIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid line';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/**
 * The data lines of an export, validated, with their line numbers: throws an ImportError naming the
 * first line that is not JSON, not valid, or over the bound. Shared by the SQLite and PostgreSQL imports.
 */
export function* parseExportLines(lines: Iterable<string>): Generator<{ lineNo: number; line: DataLine }> {
  let lineNo = 0;
  let sawHeader = false;
  for (const raw of bounded(lines)) {
    lineNo++;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new ImportError(lineNo, `not valid JSON (${(err as Error).message})`);
    }
    if (!sawHeader) {
      if (!HeaderLineSchema.safeParse(value).success) {
        throw new ImportError(lineNo, `not an Interceptor Console history export: the first line must be {"format":"${EXPORT_FORMAT}","version":1}`);
      }
      sawHeader = true;
      continue;
    }
    const parsed = DataLineSchema.safeParse(value);
    if (!parsed.success) throw new ImportError(lineNo, describeIssue(parsed.error));
    // zod only validates: the original object is stored, because zod's output reorders keys
    // and the export must come back byte for byte.
    yield { lineNo, line: value as DataLine };
  }
  if (!sawHeader) throw new ImportError(Math.max(1, lineNo), 'the file is empty: an export starts with its header line');
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
