// `interceptor-console export`: the history as JSONL (lossless; `import` reads it back).
import { closeSync, renameSync, rmSync, writeSync } from 'node:fs';
import { openPrivateFile } from '../../files/private-files';
import { CliFailure, type CliCommand } from '../command';
import { parseFlags } from '../flags';
import { dbOption, dbUsage, withHistoryStore } from './history-db';

const usage = `Usage: interceptor-console export [--db FILE] [--out FILE]

Writes every gateway, session and execution as JSON lines, oldest execution first. The format is
lossless: \`import\` into a fresh file and export again gives the same bytes.

Options:
${dbUsage(17)}
  --out FILE     write to this file instead of stdout

Example:
  interceptor-console export --db ~/history.db --out history.jsonl`;

const CHUNK = 1 << 20;

async function writeStdout(text: string): Promise<void> {
  if (process.stdout.write(text)) return;
  await new Promise<void>((resolve) => process.stdout.once('drain', () => resolve()));
}

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'Export the recorded history as JSONL (lossless)',
  usage,
  async run(argv) {
    const { values } = parseFlags(argv, { ...dbOption, out: { type: 'string' } });
    return withHistoryStore(values, { read: true }, (store) => writeExport(store.exportLines(), values.out));
  },
};

/** Writes the lines to --out (through a .partial file renamed at the end) or to stdout. */
async function writeExport(lines: Iterable<string> | AsyncIterable<string>, out: string | undefined): Promise<number> {
  if (!out) {
    let buffer = '';
    for await (const line of lines) {
      buffer += `${line}\n`;
      if (buffer.length >= CHUNK) {
        await writeStdout(buffer);
        buffer = '';
      }
    }
    await writeStdout(buffer);
    return 0;
  }
  // Written beside the target and renamed at the end: a failed export never leaves half a file.
  const partial = `${out}.partial`;
  let fd: number;
  try {
    // Recorded traffic: the export is as private as the history it comes from.
    fd = openPrivateFile(partial, 'w');
  } catch (err) {
    throw new CliFailure(`cannot write ${out}: ${(err as Error).message}`);
  }
  let count = 0;
  try {
    let buffer = '';
    for await (const line of lines) {
      buffer += `${line}\n`;
      count++;
      if (buffer.length >= CHUNK) {
        writeSync(fd, buffer);
        buffer = '';
      }
    }
    writeSync(fd, buffer);
    closeSync(fd);
    renameSync(partial, out);
  } catch (err) {
    closeSync(fd);
    rmSync(partial, { force: true });
    throw new CliFailure(`export to ${out} failed: ${(err as Error).message}`);
  }
  console.error(`exported ${count - 1} record(s) to ${out}`);
  return 0;
}
