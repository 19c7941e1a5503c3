// Newline-delimited JSON-RPC over a pair of streams: the stdio listener (our stdin/stdout) and stdio
// backends (a child's stdout/stdin). Written here rather than taken from the SDK because the gateway must
// (a) answer an oversized or malformed line with a JSON-RPC error and keep the connection, where the SDK
// transports close or only report it, and (b) stay cheap on the hot path (one JSON.parse, no schema pass).
import type { Readable, Writable } from 'node:stream';
import { RawIds } from './raw-ids';
import { checkMessage, errorResponse, RpcCode, type JsonRpcError, type JsonRpcId, type JsonRpcMessage } from './jsonrpc';

export type InvalidLine =
  { kind: 'oversize'; bytes: number; limit: number } | { kind: 'parse'; error: string } | { kind: 'invalid'; id: JsonRpcId | null; reason: string };

export interface MessageChannel {
  send(message: JsonRpcMessage, options?: { relatedRequestId?: JsonRpcId }): void;
  /** `text`: the line as read (message capture keeps it instead of serializing the message again). */
  onmessage?: (message: JsonRpcMessage, text?: string) => void;
  /** A line that is not a JSON-RPC message: the owner decides whether to answer it. */
  oninvalid?: (problem: InvalidLine) => void;
  onclose?: () => void;
  close(): void;
}

const NEWLINE = 0x0a;

export class LineChannel implements MessageChannel {
  onmessage?: (message: JsonRpcMessage, text?: string) => void;
  oninvalid?: (problem: InvalidLine) => void;
  onclose?: () => void;
  private chunks: Buffer[] = [];
  private pending = 0;
  /** Set while skipping the rest of an oversized line. */
  private discarding = 0;
  private closed = false;
  /** Client side of the stdio listener: ids a number cannot carry exactly are answered with their raw text. */
  private readonly rawIds?: RawIds;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxMessageBytes: number,
    options: { keepRawIds?: boolean } = {},
  ) {
    if (options.keepRawIds) this.rawIds = new RawIds();
    input.on('data', this.onData);
    input.on('end', this.onEnd);
    input.on('close', this.onEnd);
    input.on('error', this.onEnd);
    // EPIPE on a closed peer is the peer going away, not our crash.
    output.on('error', this.onEnd);
  }

  /** Returns the line written (without its newline), which message capture keeps as the message's text. */
  send(message: JsonRpcMessage): string | undefined {
    if (this.closed) return undefined;
    const raw = this.rawIds && !('method' in message) ? this.rawIds.serialize(message) : undefined;
    const line = raw ?? JSON.stringify(message);
    this.output.write(`${line}\n`);
    return line;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.onclose?.();
  }

  private readonly onEnd = (): void => {
    this.close();
  };

  private readonly onData = (chunk: Buffer | string): void => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (buf.length > 0) {
      const nl = buf.indexOf(NEWLINE);
      if (this.discarding > 0) {
        if (nl < 0) {
          this.discarding += buf.length;
          return;
        }
        const bytes = this.discarding + nl;
        this.discarding = 0;
        buf = buf.subarray(nl + 1);
        this.oninvalid?.({ kind: 'oversize', bytes, limit: this.maxMessageBytes });
        continue;
      }
      if (nl < 0) {
        if (this.pending + buf.length > this.maxMessageBytes) {
          // Too long already: drop what we hold and skip to the end of this line.
          this.discarding = this.pending + buf.length;
          this.chunks = [];
          this.pending = 0;
          return;
        }
        this.chunks.push(buf);
        this.pending += buf.length;
        return;
      }
      const head = buf.subarray(0, nl);
      buf = buf.subarray(nl + 1);
      const size = this.pending + head.length;
      let line: Buffer;
      if (this.chunks.length > 0) {
        this.chunks.push(head);
        line = Buffer.concat(this.chunks, size);
        this.chunks = [];
        this.pending = 0;
      } else {
        line = head;
      }
      if (size > this.maxMessageBytes) {
        this.oninvalid?.({ kind: 'oversize', bytes: size, limit: this.maxMessageBytes });
        continue;
      }
      this.handleLine(line);
    }
  };

  private handleLine(line: Buffer): void {
    const text = line.toString('utf8').trim();
    if (text === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      this.oninvalid?.({ kind: 'parse', error: (err as Error).message });
      return;
    }
    const checked = checkMessage(value);
    if (!checked.ok) {
      this.oninvalid?.({ kind: 'invalid', id: checked.id, reason: checked.reason });
      return;
    }
    const message = checked.message as { id?: unknown; method?: unknown };
    if (this.rawIds && typeof message.id === 'number' && typeof message.method === 'string') {
      const token = this.rawIds.tokenFor(message.id, text);
      if (token !== undefined) message.id = token;
    }
    this.onmessage?.(checked.message, text);
  }
}

/** The error a client gets for a line (or body) that is not a usable JSON-RPC message. */
export function invalidLineResponse(problem: InvalidLine): JsonRpcError {
  if (problem.kind === 'oversize') {
    return errorResponse(
      null,
      RpcCode.MessageTooLarge,
      `Message of ${problem.bytes} bytes exceeds the gateway's cap of ${problem.limit} bytes (maxMessageBytes); send a smaller message or raise maxMessageBytes in the gateway config`,
      { bytes: problem.bytes, limit: problem.limit },
    );
  }
  if (problem.kind === 'parse') return errorResponse(null, RpcCode.ParseError, `Parse error: the message is not valid JSON (${problem.error})`);
  return errorResponse(problem.id, RpcCode.InvalidRequest, `Invalid JSON-RPC message: ${problem.reason}`);
}
