// Reads a text file line by line, synchronously and in bounded memory (an import runs inside one
// synchronous transaction, and exports can be larger than memory). A line longer than the bound is
// refused as soon as the bound is passed: it is never held whole (a 64 MB line once cost 647 MB).
import { closeSync, openSync, readSync } from 'node:fs';

const CHUNK = 1 << 20;

/** The longest line an import accepts by default: an execution with payloads of a few MB each. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export class LineTooLongError extends Error {
  override name = 'LineTooLongError';
  constructor(
    /** 1-based. */
    readonly line: number,
    readonly maxBytes: number,
  ) {
    super(`line ${line} is longer than ${maxBytes} bytes`);
  }
}

export function* fileLines(path: string, maxLineBytes = DEFAULT_MAX_LINE_BYTES): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(CHUNK);
    // The start of the current line, copied out of the reused chunk; joined once its end is read.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let lineNo = 0;
    let pos = 0;
    for (;;) {
      const n = readSync(fd, chunk, 0, CHUNK, pos);
      if (n === 0) break;
      pos += n;
      const buf = chunk.subarray(0, n);
      let start = 0;
      for (let nl = buf.indexOf(10, start); nl >= 0; nl = buf.indexOf(10, start)) {
        lineNo++;
        if (pendingBytes + nl - start > maxLineBytes) throw new LineTooLongError(lineNo, maxLineBytes);
        const line = pendingBytes > 0 ? Buffer.concat([...pending, buf.subarray(start, nl)]).toString('utf8') : buf.toString('utf8', start, nl);
        pending = [];
        pendingBytes = 0;
        yield line;
        start = nl + 1;
      }
      if (start < n) {
        pendingBytes += n - start;
        if (pendingBytes > maxLineBytes) throw new LineTooLongError(lineNo + 1, maxLineBytes);
        pending.push(Buffer.from(buf.subarray(start)));
      }
    }
    if (pendingBytes > 0) yield Buffer.concat(pending).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

export function* stringLines(text: string, maxLineBytes = DEFAULT_MAX_LINE_BYTES): Generator<string> {
  let start = 0;
  let lineNo = 0;
  const check = (line: string) => {
    lineNo++;
    // A UTF-16 unit is at most 3 UTF-8 bytes: only long strings need counting.
    if (line.length * 3 > maxLineBytes && Buffer.byteLength(line) > maxLineBytes) throw new LineTooLongError(lineNo, maxLineBytes);
    return line;
  };
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
    yield check(text.slice(start, nl));
    start = nl + 1;
  }
  if (start < text.length) yield check(text.slice(start));
}
