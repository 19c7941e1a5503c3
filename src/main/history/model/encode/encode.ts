// ExecutionRecord / SessionRecord → the flat encoded form (sql/encoded.ts). Pure: no database.
import type { ExecutionRecord, SessionRecord } from '../../../../shared/trace/execution';
import type { ChainTrace, TraceStep } from '../../../../shared/trace/types';
import type { EncodedExecution, EncodedGateway, EncodedSession, EncodedStep, EncodedTrace, PayloadRef } from './encoded';
import { extraFields, toJsonText } from './json-text';

const OUTCOMES = new Set(['allow', 'blocked', 'mutated', 'error']);

const RECORD_KEYS = new Set([
  'id',
  'gateway',
  'sessionId',
  'jsonrpcId',
  'event',
  'target',
  'startedAt',
  'durationMs',
  'requestReceived',
  'requestForwarded',
  'responseReceived',
  'responseReturned',
  'errorReturned',
  'outcome',
  'blockedBy',
  'requestTrace',
  'responseTrace',
  'simulated',
  'replayOf',
  'replayMode',
]);
const STEP_KEYS = new Set([
  'server',
  'name',
  'type',
  'pass',
  'mode',
  'failOpen',
  'priority',
  'timeoutMs',
  'skipped',
  'skipDetail',
  'input',
  'result',
  'error',
  'startMs',
  'durationMs',
  'outcome',
  'shadow',
  'simulated',
]);
const SESSION_KEYS = new Set(['id', 'gateway', 'startedAt', 'clientInfo', 'principal', 'protocolVersion', 'transport']);

/** A record the store cannot accept as it is (a gateway bug): counted and reported, never written half. */
export class RecordRejectedError extends Error {
  override name = 'RecordRejectedError';
}

function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new RecordRejectedError(`${what} must be a non-empty string`);
  return value;
}

function optString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function optNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function bit(value: unknown): 0 | 1 | null {
  return value === true ? 1 : value === false ? 0 : null;
}

/** The distinct JSON texts of one execution. Objects seen twice (the engine passes the same payload
 * object along the chain) are serialized once. */
class PayloadTable {
  readonly texts: string[] = [];
  private readonly byText = new Map<string, number>();
  private readonly byObject = new Map<object, number>();
  bytes = 0;
  ref(value: unknown): PayloadRef {
    if (value === undefined) return null;
    const isObject = typeof value === 'object' && value !== null;
    if (isObject) {
      const known = this.byObject.get(value);
      if (known !== undefined) return known;
    }
    const text = toJsonText(value);
    if (text === null) return null;
    let i = this.byText.get(text);
    if (i === undefined) {
      i = this.texts.length;
      this.texts.push(text);
      this.byText.set(text, i);
      this.bytes += text.length * 2;
    }
    if (isObject) this.byObject.set(value, i);
    return i;
  }
}

const STEP_AND_ID_KEYS = new Set([...STEP_KEYS, 'id']);

/** traceStartMs: when the step's chain trace started (a step's startMs is an offset from it), if known. */
function encodeStep(step: TraceStep, phase: string, payloads: PayloadTable, traceStartMs: number | undefined): EncodedStep {
  const slash = typeof step.id === 'string' ? step.id.indexOf('/') : -1;
  const server = typeof step.server === 'string' ? step.server : slash >= 0 ? step.id.slice(0, slash) : '';
  const name = typeof step.name === 'string' ? step.name : slash >= 0 ? step.id.slice(slash + 1) : String(step.id ?? '');
  let resultJson: string | null = null;
  let resultPayload: PayloadRef = null;
  const result = step.result as unknown;
  if (result && typeof result === 'object' && !Array.isArray(result) && 'payload' in result) {
    const { payload, ...rest } = result as Record<string, unknown>;
    resultPayload = payloads.ref(payload);
    resultJson = JSON.stringify(rest);
  } else {
    resultJson = toJsonText(result);
  }
  // The identity is `server/name` (A7); any other id is kept verbatim among the extras.
  let extraJson = extraFields(step, STEP_AND_ID_KEYS);
  if (step.id !== undefined && step.id !== `${server}/${name}`) {
    extraJson = JSON.stringify({ id: step.id, ...(extraJson ? (JSON.parse(extraJson) as object) : {}) });
  }
  const sinkResult = result as { recorded?: unknown; metrics?: unknown } | undefined;
  const startMs = optNumber(step.startMs) ?? 0;
  return {
    phase,
    server,
    name,
    type: String(step.type ?? ''),
    pass: String(step.pass ?? ''),
    mode: String(step.mode ?? ''),
    failOpen: step.failOpen ? 1 : 0,
    priority: optNumber(step.priority) ?? 0,
    timeoutMs: optNumber(step.timeoutMs),
    skipped: optString(step.skipped),
    skipDetail: optString(step.skipDetail),
    input: payloads.ref(step.input),
    resultJson,
    resultPayload,
    errorJson: toJsonText(step.error),
    startMs,
    durationMs: optNumber(step.durationMs) ?? 0,
    outcome: String(step.outcome ?? ''),
    shadow: step.shadow ? 1 : 0,
    simulated: bit(step.simulated),
    extraJson,
    sink:
      step.type === 'sink' && !step.skipped
        ? {
            recorded: sinkResult?.recorded === true || (sinkResult?.recorded === undefined && step.outcome === 'recorded') ? 1 : 0,
            metricsJson: toJsonText(sinkResult?.metrics),
            atMs: traceStartMs === undefined ? null : Math.round(traceStartMs + startMs),
          }
        : null,
  };
}

function encodeTrace(trace: ChainTrace | undefined, phase: string, payloads: PayloadTable, steps: EncodedStep[]): EncodedTrace | null {
  if (!trace || typeof trace !== 'object') return null;
  const { steps: traceSteps, inputPayload, finalPayload, ...header } = trace;
  // The response phase starts when the backend answers, not when the execution started.
  const startMs = typeof header.startedAt === 'string' ? Date.parse(header.startedAt) : NaN;
  const traceStartMs = Number.isFinite(startMs) ? startMs : undefined;
  for (const step of Array.isArray(traceSteps) ? traceSteps : []) steps.push(encodeStep(step, phase, payloads, traceStartMs));
  return { json: JSON.stringify(header), input: payloads.ref(inputPayload), final: payloads.ref(finalPayload) };
}

/**
 * Throws RecordRejectedError when the store cannot take `record` as it is (what encodeExecution would
 * refuse), without encoding it: the checks a recorder makes when a record is handed over.
 */
export function checkExecution(record: ExecutionRecord): void {
  if (!record || typeof record !== 'object') throw new RecordRejectedError('the execution record is not an object');
  requireString(record.id, 'execution id');
  requireString(record.gateway, 'gateway');
  requireString(record.event, 'event');
  requireString(record.startedAt, 'startedAt');
  if (!OUTCOMES.has(record.outcome)) throw new RecordRejectedError(`outcome "${String(record.outcome)}" is not one of allow, blocked, mutated, error`);
  if (typeof record.durationMs !== 'number' || !Number.isFinite(record.durationMs)) throw new RecordRejectedError('durationMs must be a finite number');
}

/** receivedMs: when the record was handed over (the time an unparsable startedAt is filed under). */
export function encodeExecution(record: ExecutionRecord, receivedMs?: number): EncodedExecution {
  checkExecution(record);
  const uuid = record.id;
  const gateway = record.gateway;
  const event = record.event;
  const startedAt = record.startedAt;

  let startedMs = Date.parse(startedAt);
  let startedAtText: string | null = null;
  if (Number.isNaN(startedMs)) {
    startedMs = receivedMs ?? Date.now(); // unparsable: filed under the time it arrived, the text kept verbatim
    startedAtText = startedAt;
  } else if (new Date(startedMs).toISOString() !== startedAt) {
    startedAtText = startedAt;
  }

  const payloads = new PayloadTable();
  const requestReceived = payloads.ref(record.requestReceived);
  const requestForwarded = payloads.ref(record.requestForwarded);
  const responseReceived = payloads.ref(record.responseReceived);
  const responseReturned = payloads.ref(record.responseReturned);
  const errorJson = toJsonText(record.errorReturned);
  const searchable = new Set<number>();
  for (const ref of [requestReceived, requestForwarded, responseReceived, responseReturned]) if (ref !== null) searchable.add(ref);

  const steps: EncodedStep[] = [];
  const requestTrace = encodeTrace(record.requestTrace, 'request', payloads, steps);
  const responseTrace = encodeTrace(record.responseTrace, 'response', payloads, steps);

  const blockedBy = record.blockedBy;
  const blocked =
    blockedBy && typeof blockedBy === 'object'
      ? {
          server: String(blockedBy.server ?? ''),
          interceptor: String(blockedBy.interceptor ?? ''),
          phase: optString(blockedBy.phase),
          json: JSON.stringify(blockedBy),
        }
      : null;

  // Values of known fields with an unexpected type go to the extras too, so nothing is dropped.
  const extra: Record<string, unknown> = {};
  const others = extraFields(record, RECORD_KEYS);
  if (others) Object.assign(extra, JSON.parse(others));
  const jsonrpcId = typeof record.jsonrpcId === 'string' || typeof record.jsonrpcId === 'number' ? record.jsonrpcId : null;
  if (record.jsonrpcId !== undefined && jsonrpcId === null) extra.jsonrpcId = record.jsonrpcId;
  if (record.sessionId !== undefined && typeof record.sessionId !== 'string') extra.sessionId = record.sessionId;
  if (record.target !== undefined && typeof record.target !== 'string') extra.target = record.target;
  if (record.simulated !== undefined && typeof record.simulated !== 'boolean') extra.simulated = record.simulated;

  const searchExtra: string[] = [];
  if (errorJson) searchExtra.push(errorJson);
  if (blockedBy) searchExtra.push([blockedBy.reason, ...(Array.isArray(blockedBy.messages) ? blockedBy.messages : [])].join('\n'));

  const encoded: EncodedExecution = {
    kind: 'execution',
    uuid,
    gateway,
    sessionKey: optString(record.sessionId),
    jsonrpcId,
    event,
    target: optString(record.target),
    startedMs,
    startedAtText,
    durationMs: record.durationMs,
    outcome: record.outcome,
    payloads: payloads.texts,
    requestReceived,
    requestForwarded,
    responseReceived,
    responseReturned,
    errorCode: optNumber(record.errorReturned?.code),
    errorJson,
    blocked,
    requestTrace,
    responseTrace,
    steps,
    simulated: bit(record.simulated),
    replayOf: optString(record.replayOf),
    replayMode: optString(record.replayMode),
    extraJson: Object.keys(extra).length > 0 ? JSON.stringify(extra) : null,
    search: { refs: [...searchable], extra: searchExtra },
    bytes: 0,
  };
  encoded.bytes = payloads.bytes + (errorJson?.length ?? 0) * 2 + steps.length * 400 + 1000;
  return encoded;
}

export function encodeSession(session: SessionRecord): EncodedSession {
  if (!session || typeof session !== 'object') throw new RecordRejectedError('the session record is not an object');
  const key = requireString(session.id, 'session id');
  const gateway = requireString(session.gateway, 'session gateway');
  const startedAt = requireString(session.startedAt, 'session startedAt');
  const clientInfoJson = toJsonText(session.clientInfo);
  const principalJson = toJsonText(session.principal);
  const extraJson = extraFields(session, SESSION_KEYS);
  return {
    kind: 'session',
    gateway,
    key,
    startedAt,
    clientInfoJson,
    principalJson,
    protocolVersion: optString(session.protocolVersion),
    transport: optString(session.transport),
    extraJson,
    bytes: 300 + ((clientInfoJson?.length ?? 0) + (principalJson?.length ?? 0) + (extraJson?.length ?? 0)) * 2,
  };
}

export function encodeGateway(name: string, config: unknown, at: string): EncodedGateway {
  const configJson = toJsonText(config);
  return { kind: 'gateway', name: requireString(name, 'gateway name'), configJson, at, bytes: 200 + (configJson?.length ?? 0) * 2 };
}
