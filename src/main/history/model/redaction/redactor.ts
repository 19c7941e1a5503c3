// Redaction at rest: applied to a record before it is encoded, so neither the database, the
// search index nor a spill file ever holds the redacted values.
import type { ExecutionRecord } from '../../../../shared/trace/execution';
import type { MessageRecord } from '../../../../shared/trace/messages';
import type { BlockInfo, ChainTrace, TraceStep } from '../../../../shared/trace/types';
import { redactSecrets, SECRET_FORMATS, type SecretFormat } from '../../../interceptors/samples/secrets';
import { parsePath, redactAtPath, redactPaths, RedactionPathError, type PathSegment } from './json-paths';
import { collectQuotable, QuotedByExecution, replaceQuoted } from './quoted-values';
import { setOwnKey } from '../../../../shared/protocol/canonical';

export interface RedactionOptions {
  /** Fields replaced in every payload (request, response, step inputs and results), e.g. `arguments.password`. */
  paths?: string[];
  /** Replace secrets of the sample formats (AWS keys, GitHub and Stripe tokens...) anywhere in the record: all formats, or these ids. */
  secrets?: boolean | string[];
  /** What a redacted field becomes. Default "[REDACTED]". */
  replacement?: string;
}

export interface Redactor {
  execution(record: ExecutionRecord): ExecutionRecord;
  /**
   * A captured message: the paths apply to its payload as for executions: a request's params, a result, an
   * error's data; on an interceptor server's side, the payload an `interceptor/invoke` carries (params.payload)
   * and the one a mutation returns (result.payload), which are the same client payloads one level down.
   */
  message?(record: MessageRecord): MessageRecord;
}

/** Undefined when the options redact nothing; throws RedactionPathError for a malformed path or unknown format. */
export function createRedactor(options: RedactionOptions): Redactor | undefined {
  const patterns: PathSegment[][] = (options.paths ?? []).map(parsePath);
  let formats: readonly SecretFormat[] = [];
  if (options.secrets === true) formats = SECRET_FORMATS;
  else if (Array.isArray(options.secrets)) {
    formats = options.secrets.map((id) => {
      const f = SECRET_FORMATS.find((x) => x.id === id);
      if (!f) throw new RedactionPathError(`unknown secret format "${id}"; known: ${SECRET_FORMATS.map((x) => x.id).join(', ')}`);
      return f;
    });
  }
  if (patterns.length === 0 && formats.length === 0) return undefined;
  const replacement = options.replacement ?? '[REDACTED]';
  // Values quoted in free text (quoted-values.ts): remembered per execution for its later messages.
  const remembered = new QuotedByExecution();

  /** Redaction of one record: its payloads by path, each value replaced kept in `quoted`. */
  const paths = (quoted: Set<string>) => {
    const found = (v: unknown) => collectQuotable(v, quoted);
    const payload = (v: unknown) => (v === undefined ? v : redactPaths(v, patterns, replacement, found));
    /** A validation's suggestions carry values at payload paths: each is redacted as its path would be. */
    const suggestions = (result: unknown): unknown => {
      const list = (result as { suggestions?: unknown } | null | undefined)?.suggestions;
      if (!Array.isArray(list)) return result;
      const redacted = list.map((sg: unknown) => {
        if (!sg || typeof sg !== 'object' || !('value' in sg)) return sg;
        const { path, value } = sg as { path?: unknown; value: unknown };
        return { ...sg, value: redactAtPath(path, value, patterns, replacement, found) };
      });
      return { ...(result as Record<string, unknown>), suggestions: redacted };
    };
    const step = (s: TraceStep): TraceStep => {
      const out: TraceStep = { ...s, input: payload(s.input) };
      if (s.input === undefined) delete out.input;
      const result = s.result as unknown;
      if (result && typeof result === 'object' && 'payload' in result) {
        out.result = { ...(result as Record<string, unknown>), payload: payload((result as { payload: unknown }).payload) } as TraceStep['result'];
      } else if (result && typeof result === 'object') {
        out.result = suggestions(result) as TraceStep['result'];
      }
      return out;
    };
    const trace = (t: ChainTrace | undefined): ChainTrace | undefined =>
      t && { ...t, inputPayload: payload(t.inputPayload), finalPayload: payload(t.finalPayload), steps: (t.steps ?? []).map(step) };
    return { payload, suggestions, trace };
  };

  return {
    execution(record) {
      let out: ExecutionRecord = record;
      if (patterns.length > 0) {
        const quoted = new Set<string>();
        const { payload, trace } = paths(quoted);
        out = { ...record };
        for (const k of ['requestReceived', 'requestForwarded', 'responseReceived', 'responseReturned'] as const) {
          if (record[k] !== undefined) out[k] = payload(record[k]);
        }
        if (record.errorReturned?.data !== undefined) out.errorReturned = { ...record.errorReturned, data: payload(record.errorReturned.data) };
        if (record.requestTrace) out.requestTrace = trace(record.requestTrace);
        if (record.responseTrace) out.responseTrace = trace(record.responseTrace);
        // A breakpoint's edit or mock answer: the payload before and after, redacted as any payload.
        if (record.pauses) {
          out.pauses = record.pauses.map((pause) => {
            if (pause.before === undefined && pause.after === undefined) return pause;
            const copy = { ...pause };
            if (pause.before !== undefined) copy.before = payload(pause.before);
            if (pause.after !== undefined) copy.after = payload(pause.after);
            return copy;
          });
        }
        remembered.addTo(record.id, quoted);
        if (quoted.size > 0) out = quotedInExecution(out, quoted, replacement);
      }
      if (formats.length > 0) out = redactSecrets(out, formats).value;
      return out;
    },
    message(record) {
      // The wire text holds what is redacted here: the redacted message is serialized again instead.
      let out: MessageRecord = record;
      if (record.text !== undefined) {
        out = { ...record };
        delete out.text;
      }
      const m = record.message as Record<string, unknown> | null;
      if (patterns.length > 0 && m && typeof m === 'object') {
        const quoted = new Set<string>();
        const { payload, suggestions } = paths(quoted);
        const copy: Record<string, unknown> = { ...m };
        if (m.params !== undefined) copy.params = payload(m.params);
        if (m.result !== undefined) copy.result = payload(m.result);
        if (record.side === 'interceptor') {
          copy.params = nestedPayload(copy.params, payload);
          copy.result = suggestions(nestedPayload(copy.result, payload));
          if (copy.params === undefined) delete copy.params;
          if (copy.result === undefined) delete copy.result;
        }
        const error = m.error as Record<string, unknown> | undefined;
        if (error && typeof error === 'object' && error.data !== undefined) copy.error = { ...error, data: payload(error.data) };
        if (record.executionId !== undefined) {
          remembered.remember(record.executionId, quoted);
          remembered.addTo(record.executionId, quoted);
        }
        // The payload-bearing members only: the id, the method and `jsonrpc` stay as they are.
        for (const key of ['params', 'result', 'error'] as const) if (copy[key] !== undefined) copy[key] = replaceQuoted(copy[key], quoted, replacement);
        out = { ...out, message: copy };
      }
      if (formats.length > 0) out = { ...out, message: redactSecrets(out.message, formats).value };
      return out;
    },
  };
}

/**
 * Quoted values replaced where free text can hold them: payloads, results, errors, the block and its
 * messages. Never in what identifies or dates the record (its id, gateway, session, event, target, start
 * time) or a step (server, name, id): a redacted "2026" or "1234" must not turn a uuid or a timestamp into
 * something else.
 */
function quotedInExecution(record: ExecutionRecord, quoted: ReadonlySet<string>, replacement: string): ExecutionRecord {
  const q = <T>(v: T): T => replaceQuoted(v, quoted, replacement);
  // A block's reason and messages, not whose block it was (its server and interceptor name the blocker).
  const block = (b: BlockInfo): BlockInfo => ({ ...b, reason: q(b.reason), messages: q(b.messages) });
  const out: ExecutionRecord = { ...record };
  for (const k of ['requestReceived', 'requestForwarded', 'responseReceived', 'responseReturned', 'errorReturned'] as const) {
    if (record[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = q(record[k]);
  }
  if (record.blockedBy) out.blockedBy = block(record.blockedBy);
  const trace = (t: ChainTrace): ChainTrace => ({
    ...t,
    ...(t.inputPayload !== undefined ? { inputPayload: q(t.inputPayload) } : {}),
    ...(t.finalPayload !== undefined ? { finalPayload: q(t.finalPayload) } : {}),
    ...(t.blockedBy !== undefined ? { blockedBy: block(t.blockedBy) } : {}),
    steps: (t.steps ?? []).map((step) => {
      const s: TraceStep = { ...step };
      if (step.input !== undefined) s.input = q(step.input);
      if (step.result !== undefined) s.result = withQuoted(step.result, q, ['interceptor', 'phase', 'type']);
      if (step.error !== undefined) s.error = withQuoted(step.error, q, ['kind', 'code']);
      if (step.skipDetail !== undefined) s.skipDetail = q(step.skipDetail);
      return s;
    }),
  });
  if (record.requestTrace) out.requestTrace = trace(record.requestTrace);
  if (record.responseTrace) out.responseTrace = trace(record.responseTrace);
  if (record.pauses) {
    out.pauses = record.pauses.map((pause) => {
      const p = { ...pause };
      for (const k of ['message', 'before', 'after'] as const) if (pause[k] !== undefined) (p as Record<string, unknown>)[k] = q(pause[k]);
      return p;
    });
  }
  return out;
}

/** An object with the quoted values replaced in its members, except `keep` (the ones that name or classify it). */
function withQuoted<T extends object>(value: T, q: <V>(v: V) => V, keep: readonly string[]): T {
  const out = { ...value } as Record<string, unknown>;
  for (const [key, member] of Object.entries(value)) if (!keep.includes(key)) setOwnKey(out, key, q(member)); // an own `__proto__` stays a key
  return out as T;
}

/** `{..., payload}` with its payload redacted (interceptor/invoke params, a mutation result); anything else as it is. */
function nestedPayload(value: unknown, payload: (v: unknown) => unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value) || !('payload' in value)) return value;
  const v = value as Record<string, unknown>;
  return v.payload === undefined ? value : { ...v, payload: payload(v.payload) };
}
