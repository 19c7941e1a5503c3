// How a session's requests end when the backend side fails them: the deadline passes, a send fails (the
// backend is gone, or the message cannot even be serialized), the backend dies, or it writes a line that
// is not JSON-RPC. Each waiting request gets a clear JSON-RPC error and is recorded once (SessionExchanges).
import type { Backend } from '../backend/backend';
import { depthLimited, RECORD_DEPTH, type Exchange } from './exchange';
import { RpcCode } from '../wire/jsonrpc';
import type { InvalidLine } from '../wire/line-channel';
import type { SessionHost } from './host';
import type { BackendLink } from './backend-link';
import type { SessionExchanges } from './exchanges';

export class BackendFaults {
  constructor(
    private readonly host: SessionHost,
    private readonly sessionId: string,
    private readonly exchanges: SessionExchanges,
    private readonly link: BackendLink,
  ) {}

  /** The backend missed the deadline: the client gets the error, the backend a cancellation (it may stop the work). */
  timeout(ex: Exchange, timeoutMs: number): void {
    const message = `Backend timeout: "${this.host.config.backend.name}" did not answer ${ex.method} within ${timeoutMs} ms (backendTimeoutMs); the request was cancelled`;
    this.host.log(message);
    this.exchanges.failFromClient(ex, RpcCode.BackendTimeout, message, { reason: 'backend timeout', timeoutMs });
    this.link.sendIfUp({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: ex.id, reason: 'backend timeout' } });
  }

  /** For HTTP backends: the request's response stream ended and the exchange is still waiting → error. */
  streamEndGuard(ex: Exchange): () => void {
    return () => {
      if (this.exchanges.fromClient.get(ex.id) !== ex) return; // answered (or cancelled) already
      this.exchanges.failFromClient(
        ex,
        RpcCode.BackendUnavailable,
        `the backend's response stream for ${ex.method} ended without an answer (backend gone?); retry the request`,
      );
    };
  }

  /**
   * An HTTP backend that refuses a request (down, restarted and forgot our session) has no process to
   * watch: the link is dropped so that the next request reconnects, and this one gets the error.
   */
  sendFailed(backend: Backend, ex: Exchange, err: Error): void {
    if (err instanceof RangeError) {
      // The message cannot be serialized (nested deeper than JSON.stringify goes): the request's fault, not
      // the backend's. The link stays; the request gets a clear error and is recorded with its params cut short.
      ex.requestReceived = depthLimited(ex.requestReceived, RECORD_DEPTH);
      if (ex.requestForwarded !== undefined) ex.requestForwarded = depthLimited(ex.requestForwarded, RECORD_DEPTH);
      this.exchanges.failFromClient(
        ex,
        RpcCode.InvalidParams,
        `The ${ex.method} request cannot be forwarded: its params are nested too deeply to serialize (${err.message}); send a flatter structure`,
      );
      return;
    }
    const reason = `backend "${backend.entry.name}" (${backend.describe()}) failed: ${err.message}`;
    this.link.drop(backend, reason);
    this.exchanges.failFromClient(ex, RpcCode.BackendUnavailable, `${reason}; retry the request to reconnect`);
    // The dropped backend is closed: nothing else it was asked will be answered either.
    for (const other of [...this.exchanges.fromClient.values()]) {
      if (other.forwarded) this.exchanges.failFromClient(other, RpcCode.BackendUnavailable, `${reason}; retry the request to reconnect`);
    }
  }

  /** The backend died on its own. `beforeClient`: before the client said anything (a start failure in disguise). */
  closed(reason: string, beforeClient: boolean): void {
    this.host.log(`${reason}\nThe gateway reconnects on the next request.`);
    this.host.onBackendEvent({ type: 'backend-crashed', sessionId: this.sessionId, detail: reason, beforeClient });
    for (const ex of [...this.exchanges.fromClient.values()]) {
      if (ex.forwarded || ex.method === 'initialize')
        this.exchanges.failFromClient(ex, RpcCode.BackendUnavailable, `${reason}; retry the request to reconnect`);
    }
    // Requests the dead backend made of the client can no longer be answered.
    this.exchanges.dropBackendRequests();
  }

  invalid(problem: InvalidLine): void {
    if (problem.kind === 'invalid' && problem.id !== null) {
      // A broken answer to a request that waits: fail that request now rather than let it wait out its deadline.
      const ex = this.exchanges.fromClient.get(problem.id);
      const message = `The backend answered ${ex?.method ?? 'a request'} with an invalid JSON-RPC message (${problem.reason})`;
      this.host.log(message);
      if (ex?.forwarded) this.exchanges.failFromClient(ex, RpcCode.InternalError, message);
      return;
    }
    if (problem.kind !== 'oversize') return;
    // The id of an oversized response is unknowable without parsing it: fail the request only if it is the only one waiting.
    const waiting = [...this.exchanges.fromClient.values()].filter((e) => e.forwarded);
    const message = `The backend's message of ${problem.bytes} bytes exceeds the gateway's cap of ${problem.limit} bytes (maxMessageBytes)`;
    this.host.log(message);
    if (waiting.length === 1) this.exchanges.failFromClient(waiting[0]!, RpcCode.InternalError, message);
  }
}
