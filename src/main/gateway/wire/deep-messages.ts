// Messages nested deeper than MAX_PAYLOAD_DEPTH on every path but a client's request (refused in
// session.ts): a backend's answer, request or notification, a client's notification or answer to a backend
// request. Nothing on the gateway may walk such a payload recursively (the chain's clone, the recorder's
// and the message capture's JSON.stringify, a redactor): records and captured messages keep a copy cut at
// RECORD_DEPTH levels, and what cannot be inspected or serialized is answered with an error saying why.
// The checks run where a message comes in (BackendLink for the backend, the session for the client).
import { MAX_PAYLOAD_DEPTH, MAX_RELAY_DEPTH, messageNestedDeeperThan } from '../../../shared/protocol/payload-depth';
import { depthLimited, RECORD_DEPTH } from '../session/exchange';
import { RpcCode, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcResponse } from './jsonrpc';
import type { SessionExchanges } from '../session/exchanges';

/** A copy of `message` with its payload (params, result or error) cut at RECORD_DEPTH levels: what is recorded and captured. */
export function cutMessage<T extends JsonRpcMessage>(message: T): T {
  if ('method' in message) return { ...message, params: depthLimited(message.params, RECORD_DEPTH) };
  if ('result' in message) return { ...message, result: depthLimited(message.result, RECORD_DEPTH) };
  return { ...message, error: depthLimited(message.error, RECORD_DEPTH) };
}

/** Whether the gateway can send this message on unchanged: nothing it does then recurses past MAX_RELAY_DEPTH. */
export function relayable(message: JsonRpcMessage): boolean {
  return !messageNestedDeeperThan(message, MAX_RELAY_DEPTH);
}

/** The client's error when interceptors or breakpoints on `method` would have had to inspect the backend's result. */
export function uninspectableResultMessage(method: string): string {
  return `The backend's result for ${method} is nested too deeply: more than ${MAX_PAYLOAD_DEPTH} levels of objects and arrays, which the interceptors and breakpoints on ${method} cannot inspect, so the gateway withheld it (the backend did run the call). Make the backend return a flatter result`;
}

/** The client's error when the backend's answer is too deep for the gateway to serialize at all. */
export function unrelayableAnswerMessage(method: string): string {
  return `The backend's answer to ${method} is nested too deeply to relay: more than ${MAX_RELAY_DEPTH} levels of objects and arrays, which the gateway cannot serialize (the backend did run the call). Make the backend return a flatter result`;
}

/** The backend's error when its own request (sampling, elicitation, roots) is too deep to forward to the client. */
export function backendRequestTooDeepMessage(method: string): string {
  return `The ${method} request cannot be forwarded to the client: its params are nested too deeply, more than ${MAX_PAYLOAD_DEPTH} levels of objects and arrays, which the gateway does not take (its interceptor chain and recorder could not handle it); send a flatter structure`;
}

/**
 * A client's answer to a backend request (a sampling or elicitation result) nested too deeply: the backend
 * gets -32603 saying so instead, and the exchange is recorded once with the answer cut. An answer nobody
 * waits for (the backend cancelled, or it is a duplicate) is dropped, as any such answer is.
 */
export function refuseDeepClientAnswer(exchanges: SessionExchanges, res: JsonRpcResponse): void {
  const ex = res.id !== null ? exchanges.fromBackend.get(res.id) : undefined;
  if (!ex) return;
  const cut = cutMessage(res);
  if ('result' in cut) ex.responseReceived = cut.result;
  const message = `The client's answer to ${ex.method} is nested too deeply: more than ${MAX_PAYLOAD_DEPTH} levels of objects and arrays, which the gateway does not take (its interceptor chain and recorder could not handle it); the client must answer with a flatter structure`;
  exchanges.fail(ex, RpcCode.InternalError, message);
}

/** The log line for a notification dropped because it is too deep (a notification has nobody to answer). */
export function droppedNotificationLine(from: 'client' | 'backend', sessionId: string, note: JsonRpcNotification, limit: number): string {
  return `session ${sessionId}: dropped a ${note.method} notification from the ${from}: its params are nested deeper than ${limit} levels of objects and arrays, which the gateway does not ${from === 'client' ? 'take' : 'relay'}`;
}
