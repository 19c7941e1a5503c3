// A typed client over any transport that carries envelopes (preload bridge, WebSocket, HTTP).
// Envelopes and events are checked by hand (guards.ts), not with zod: this module is in the renderer's
// start bundle.
import type { ApiErrorCode, ApiResult } from './envelope';
import type { ApiEvent } from './events';
import { isApiEvent, isApiResult } from './guards';
import type { ProcedureInput, ProcedureName, ProcedureOutput } from './procedures';

/** What a transport provides: send one call, receive pushed events. */
export interface ApiTransport {
  invoke(name: string, input: unknown): Promise<unknown>;
  subscribe(listener: (event: unknown) => void): () => void;
}

/** The envelope error surfaced as an exception to callers that prefer throwing (React Query). */
export class ApiCallError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly procedure: string,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
}

export interface ApiClient {
  /** Resolves with the value, rejects with an ApiCallError. */
  call<N extends ProcedureName>(name: N, ...input: OptionalInput<N>): Promise<ProcedureOutput<N>>;
  /** Resolves with the envelope, never rejects for API errors. */
  result<N extends ProcedureName>(name: N, ...input: OptionalInput<N>): Promise<ApiResult<ProcedureOutput<N>>>;
  onEvent(listener: (event: ApiEvent) => void): () => void;
}

type OptionalInput<N extends ProcedureName> = undefined extends ProcedureInput<N> ? [input?: ProcedureInput<N>] : [input: ProcedureInput<N>];

export function createApiClient(transport: ApiTransport): ApiClient {
  async function result<N extends ProcedureName>(name: N, ...args: OptionalInput<N>): Promise<ApiResult<ProcedureOutput<N>>> {
    let raw: unknown;
    try {
      raw = await transport.invoke(name, args[0]);
    } catch (err) {
      return { ok: false, error: { code: 'unavailable', message: `The console could not be reached: ${errorMessage(err)}` } };
    }
    if (!isApiResult(raw)) return { ok: false, error: { code: 'internal', message: `Malformed reply to ${name}` } };
    return raw as ApiResult<ProcedureOutput<N>>;
  }
  return {
    result,
    async call(name, ...args) {
      const r = await result(name, ...args);
      if (!r.ok) throw new ApiCallError(r.error.code, r.error.message, name);
      return r.value;
    },
    onEvent(listener) {
      return transport.subscribe((raw) => {
        if (isApiEvent(raw)) listener(raw);
      });
    },
  };
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
