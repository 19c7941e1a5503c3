// Splits a byte stream of JSON texts into one text per top-level value, as they complete. A backend may
// answer a 2026-07-28 POST with `Content-Type: application/json` and still stream: newline-delimited
// JSON-RPC messages (a progress notification, then the result) in a chunked body, the way some SDKs frame a
// response that is not SSE. The same reader takes one JSON value (pretty-printed or not), several separated
// by newlines, or several back to back, so the gateway relays each message when it arrives instead of
// waiting for a body that, for a subscriptions/listen stream, never ends.

/** A value (or an SSE event) longer than the cap: the stream is not read further. */
export class MessageTooLargeError extends Error {
  override name = 'MessageTooLargeError';
  constructor(readonly limit: number) {
    super(`a message of the backend's answer exceeds the gateway's cap of ${limit} characters (maxMessageBytes)`);
  }
}

export class JsonValueSplitter {
  /** `maxChars`: the longest value kept while it is read (a backend streaming one without end is cut off). */
  constructor(private readonly maxChars = Infinity) {}

  private buffer = '';
  /** Where the value being read starts in `buffer` (-1: between values). */
  private start = -1;
  /** How far `buffer` has been scanned. */
  private scanned = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** Feeds text and returns the values it completed, each as its own JSON text. */
  push(text: string): string[] {
    this.buffer += text;
    const out: string[] = [];
    const b = this.buffer;
    for (let i = this.scanned; i < b.length; i++) {
      const c = b.charCodeAt(i);
      if (this.start < 0) {
        if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
          this.start = i;
          this.depth = 1;
        }
        continue; // white space between values, or text that is no JSON value: nothing to relay
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c /* \ */) this.escaped = true;
        else if (c === 0x22 /* " */) this.inString = false;
        continue;
      }
      if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
        if (--this.depth === 0) {
          out.push(b.slice(this.start, i + 1));
          this.start = -1;
        }
      }
    }
    // Keep only the value in progress, so a long stream does not grow the buffer.
    if (this.start < 0) {
      this.buffer = '';
      this.scanned = 0;
    } else {
      if (b.length - this.start > this.maxChars) throw new MessageTooLargeError(this.maxChars);
      this.buffer = b.slice(this.start);
      this.scanned = this.buffer.length;
      this.start = 0;
    }
    return out;
  }
}
