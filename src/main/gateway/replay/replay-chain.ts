// "Replay chain only": a recorded request through a gateway's CURRENT chain with no backend. The request
// phase runs on the recorded (or edited) params. The response phase runs on the response the backend
// gave the original, when there is one, so a change to response-phase interceptors shows up too; when the
// original never reached the backend (it was blocked, or failed) there is nothing to run it on and the
// replay ends after the request phase. The record is built by the gateway's own exchange code and the
// block answer by its own blocked.ts, so a chain-only replay reads exactly like live traffic.
import { randomUUID } from 'node:crypto';
import type { Phase } from '../../../shared/protocol/constants';
import type { InvocationContext } from '../../../shared/protocol/schemas';
import type { ExecutionRecord, Recorder } from '../../../shared/trace/execution';
import { blockedResponse } from '../session/blocked';
import { coerceToolSchemas, toExecutionRecord, type Exchange } from '../session/exchange';
import { isErrorResponse, RpcCode, type JsonRpcErrorObject } from '../wire/jsonrpc';
import type { ReplayHost } from './replay';

export interface ChainOnlyReplay {
  method: string;
  /** The request params to run the request phase on. */
  params: unknown;
  /** The result the backend returned to the original, if it returned one. */
  recordedResponse?: unknown;
  /** The JSON-RPC error the backend returned to the original (kept as the replay's answer). */
  recordedError?: JsonRpcErrorObject;
  replayOf: string;
  principal?: string;
  protocolVersion?: string;
}

export async function replayChainOnly(host: ReplayHost, recorder: Recorder | null, input: ChainOnlyReplay): Promise<ExecutionRecord> {
  const sessionId = `replay-${randomUUID()}`;
  const ex: Exchange = {
    traceId: randomUUID(),
    id: 'replay-chain-only',
    method: input.method,
    direction: 'client',
    t0: performance.now(),
    startedAt: new Date().toISOString(),
    requestReceived: input.params,
  };
  const interception = host.interception;
  // Held for the whole replay: a hot reload meanwhile retires this interception only after it is done.
  const release = interception.lease();
  try {
    return await runReplay(host, recorder, input, interception, ex, sessionId);
  } finally {
    release();
  }
}

async function runReplay(
  host: ReplayHost,
  recorder: Recorder | null,
  input: ChainOnlyReplay,
  interception: ReplayHost['interception'],
  ex: Exchange,
  sessionId: string,
): Promise<ExecutionRecord> {
  const runtime = interception.intercepts(input.method) ? interception.runtimeFor(input.principal, input.protocolVersion) : null;
  const context: InvocationContext = {
    principal: input.principal ? { type: 'user', id: input.principal } : { type: 'anonymous' },
    traceId: ex.traceId,
    sessionId,
    timestamp: ex.startedAt,
  };

  const run = async (phase: Phase, payload: unknown): Promise<{ payload: unknown } | undefined> => {
    if (!runtime) return { payload };
    try {
      const { decision, finalPayload, trace } = await interception.run(runtime, input.method, phase, payload, context);
      if (phase === 'request') ex.requestTrace = trace;
      else ex.responseTrace = trace;
      if (decision === 'allow') return { payload: trace.modified ? finalPayload : payload };
      ex.blockedBy = trace.blockedBy;
      const answer = blockedResponse(ex.id, input.method, trace.blockedBy!, host.config.blockedToolCall);
      if (isErrorResponse(answer)) ex.errorReturned = answer.error;
      else ex.responseReturned = answer.result;
    } catch (err) {
      ex.errorReturned = { code: RpcCode.InternalError, message: `Interceptor chain failed for ${input.method} (${phase}): ${(err as Error).message}` };
    }
    return undefined;
  };

  const request = await run('request', input.params);
  if (request) {
    ex.requestForwarded = request.payload;
    if (input.recordedResponse !== undefined) {
      ex.responseReceived = input.recordedResponse;
      const received =
        input.method === 'tools/list' && input.recordedResponse && typeof input.recordedResponse === 'object'
          ? coerceToolSchemas(input.recordedResponse as Record<string, unknown>)
          : input.recordedResponse;
      const response = await run('response', received);
      if (response) ex.responseReturned = response.payload;
    } else if (input.recordedError) {
      ex.errorReturned = input.recordedError;
    }
  }

  const record = toExecutionRecord(ex, host.gatewayName, sessionId);
  // No session exists for a chain-only replay: nothing was connected.
  delete record.sessionId;
  delete record.jsonrpcId;
  record.replayOf = input.replayOf;
  record.replayMode = 'chain-only';
  recorder?.recordExecution(record);
  return record;
}
