// Server→client requests (sampling, elicitation) of the built-in client, waiting for the user. Each one
// resolves with the result the server gets once the user answers in the Client tab; it is answered with
// an error saying so when nobody answers in time, and it disappears when the server cancels it or the
// session closes. Every change is announced (the `client.requests` event) so the UI shows it live.
import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { ApiError } from '../../../../shared/api/envelope';
import type { PendingServerRequest, ServerRequestAnswer, ServerRequestMethod } from '../../../../shared/api/models-client-requests';
import { resultFor, type ServerRequestResults } from './answers';

interface Waiting {
  info: PendingServerRequest;
  /** Builds the result from the answer (throws ApiError when it does not fit) and returns how to deliver it. */
  resolveWith(answer: ServerRequestAnswer): () => void;
  reject(error: Error): void;
  /** Undoes the timer and the cancellation listener. */
  settle(): void;
}

export class PendingServerRequests {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly onChange: (sessionId: string, pending: number) => void) {}

  /**
   * Holds a request until the user answers. `signal` is the SDK's: it aborts when the server sends
   * notifications/cancelled (or the connection closes), and the request then leaves the list.
   */
  wait<M extends ServerRequestMethod>(
    sessionId: string,
    method: M,
    params: Record<string, unknown>,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<ServerRequestResults[M]> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new Error(`the server cancelled ${method} before it was shown`));
      const now = Date.now();
      const id = randomUUID();
      const info: PendingServerRequest = {
        id,
        sessionId,
        method,
        params,
        receivedAt: new Date(now).toISOString(),
        expiresAt: new Date(now + timeoutMs).toISOString(),
      };
      const onAbort = () => this.finish(id, () => reject(new Error(`the server cancelled ${method}`)));
      const timer = setTimeout(() => {
        const seconds = Math.round(timeoutMs / 1000);
        const error = new ProtocolError(
          ProtocolErrorCode.InternalError,
          `No answer within ${seconds} s: nobody answered this ${method} request in the Interceptor Console's Client tab in time (the limit is set when connecting).`,
        );
        this.finish(id, () => reject(error));
      }, timeoutMs);
      // A pending answer must not keep a stopping process alive.
      timer.unref();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, {
        info,
        // Built here, where the method's result type is known, so the SDK gets its own result type.
        resolveWith: (answer) => {
          const result = resultFor(method, params, answer);
          return () => resolve(result);
        },
        reject,
        settle: () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
        },
      });
      this.changed(sessionId);
    });
  }

  list(sessionId?: string): PendingServerRequest[] {
    const all = [...this.waiting.values()].map((w) => w.info);
    return sessionId ? all.filter((r) => r.sessionId === sessionId) : all;
  }

  /** Checks the answer against its request; a bad answer throws invalid_input and the request stays. */
  answer(sessionId: string, requestId: string, answer: ServerRequestAnswer): void {
    const w = this.waiting.get(requestId);
    if (!w || w.info.sessionId !== sessionId) {
      throw new ApiError('not_found', `No pending request "${requestId}" in this session: it was answered, cancelled by the server, or timed out.`);
    }
    let outcome: () => void;
    try {
      outcome = w.resolveWith(answer);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      // A rejection: the server gets this error.
      outcome = () => w.reject(err as Error);
    }
    this.finish(requestId, outcome);
  }

  /**
   * The session closes: whatever waits is rejected with an error saying so (a JSON-RPC error the server
   * receives while the connection is still open, see ClientSessions.disconnect). Returns how many.
   */
  dropSession(sessionId: string, why = 'the connection closed'): number {
    const ids = [...this.waiting.values()].filter((w) => w.info.sessionId === sessionId).map((w) => w.info.id);
    for (const id of ids) {
      this.finish(id, (w) =>
        w.reject(
          new ProtocolError(
            ProtocolErrorCode.InternalError,
            `Not answered: the Interceptor Console's client closed this connection (${why}) while this ${w.info.method} request was waiting for an answer.`,
          ),
        ),
      );
    }
    return ids.length;
  }

  private finish(id: string, outcome: (w: Waiting) => void): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    w.settle();
    outcome(w);
    this.changed(w.info.sessionId);
  }

  private changed(sessionId: string): void {
    this.onChange(sessionId, this.list(sessionId).length);
  }
}
