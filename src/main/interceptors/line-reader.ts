// Newline-delimited JSON-RPC as both ends of an interceptor-server stdio connection read it (the host's
// HostStdioTransport, the invoker's InterceptorStdioTransport): lines split from chunks without copying
// a chunk that holds whole lines, a trailing CR dropped, blank lines skipped, and a cap on an unfinished
// line so a peer that never sends a newline cannot grow memory without bound.

const NEWLINE = 0x0a;

/** The SDK's STDIO_DEFAULT_MAX_BUFFER_SIZE: an unfinished line longer than this ends the connection. */
export const MAX_BUFFERED_BYTES = 10 * 1024 * 1024;

export class LineReader {
  private tail: Buffer[] = [];
  private tailBytes = 0;

  /**
   * `onLine` gets each line's text and its size in bytes (without the newline); `onOverflow` is told once
   * when an unfinished line passes `maxBytes` (the owner closes the connection). `stopped` lets the owner
   * end reading in the middle of a chunk (it closed).
   */
  constructor(
    private readonly onLine: (text: string, bytes: number) => void,
    private readonly onOverflow: (error: Error) => void,
    private readonly stopped: () => boolean = () => false,
    private readonly maxBytes = MAX_BUFFERED_BYTES,
  ) {}

  push(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let nl = buf.indexOf(NEWLINE); nl >= 0 && !this.stopped(); nl = buf.indexOf(NEWLINE, start)) {
      let line: Buffer;
      if (this.tail.length > 0) {
        this.tail.push(buf.subarray(start, nl));
        line = Buffer.concat(this.tail, this.tailBytes + nl - start);
        this.clear();
      } else {
        line = buf.subarray(start, nl);
      }
      start = nl + 1;
      let end = line.length;
      if (end > 0 && line[end - 1] === 0x0d) end--;
      if (end > 0 && !isBlank(line, end)) this.onLine(line.toString('utf8', 0, end), end);
    }
    if (start >= buf.length || this.stopped()) return;
    if (this.tailBytes + buf.length - start > this.maxBytes) {
      this.clear();
      this.onOverflow(new Error(`ReadBuffer exceeded maximum size of ${this.maxBytes} bytes`));
      return;
    }
    this.tail.push(buf.subarray(start));
    this.tailBytes += buf.length - start;
  }

  clear(): void {
    this.tail = [];
    this.tailBytes = 0;
  }
}

/** Spaces and tabs only (a line's first byte is almost always `{`: this returns at once). */
function isBlank(line: Buffer, end: number): boolean {
  for (let i = 0; i < end; i++) {
    const b = line[i];
    if (b !== 0x20 && b !== 0x09) return false;
  }
  return true;
}

/** What parseLine returns for a line that is not JSON. */
export const NOT_JSON: unique symbol = Symbol('not JSON');

/** A line's JSON value; a line that is not JSON is reported and skipped, as the SDK's readers do. */
export function parseLine(text: string, onError: ((error: Error) => void) | undefined): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    onError?.(error as Error);
    return NOT_JSON;
  }
}

/** The SDK's own check of a message handed to it (`parseJSONRPCMessage`); one that fails is reported and skipped. */
export function sdkMessage<M>(value: unknown, parse: (value: unknown) => M, onError: ((error: Error) => void) | undefined): M | undefined {
  try {
    return parse(value);
  } catch (error) {
    onError?.(error as Error);
    return undefined;
  }
}
