// Reads a text file line by line, synchronously and in bounded memory (an import runs inside one
// synchronous transaction, and exports can be larger than memory).
import { closeSync, openSync, readSync } from 'node:fs';

const CHUNK = 1 << 20;

export function* fileLines(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(CHUNK);
    let carry = Buffer.alloc(0);
    let pos = 0;
    for (;;) {
      const n = readSync(fd, chunk, 0, CHUNK, pos);
      if (n === 0) break;
      pos += n;
      const buf = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      let start = 0;
      for (let nl = buf.indexOf(10, start); nl >= 0; nl = buf.indexOf(10, start)) {
        yield buf.toString('utf8', start, nl);
        start = nl + 1;
      }
      carry = Buffer.from(buf.subarray(start));
    }
    if (carry.length > 0) yield carry.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

export function* stringLines(text: string): Generator<string> {
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
    yield text.slice(start, nl);
    start = nl + 1;
  }
  if (start < text.length) yield text.slice(start);
}
