// Reading an export, engine-neutral: the import's error, options and result, and the validated data lines
// with their line numbers. The SQLite import (sqlite/portability/import-jsonl.ts) and the PostgreSQL one
// (postgres/pg-portability.ts) both write what this yields, all or nothing.
import type { Redactor } from '../redaction/redactor';
import { DataLineSchema, EXPORT_FORMAT, HeaderLineSchema, type DataLine } from './line-schema';
import { LineTooLongError } from './line-reader';

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
