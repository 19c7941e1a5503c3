// The result envelope every API procedure returns, over IPC, HTTP and WebSocket alike.
// Errors cross the boundary as plain {code, message}: Electron keeps only an Error's message,
// and the renderer needs a stable code to decide what to show.
import { z } from 'zod';

export const API_ERROR_CODES = [
  'unknown_procedure', // no such procedure name
  'invalid_input', // input failed the procedure's zod schema
  'invalid_output', // a service returned something the contract does not allow (a bug, reported not thrown)
  'invalid_config', // a gateway config failed validation
  'not_found', // the gateway / execution / server named does not exist
  'conflict', // e.g. a gateway with that id exists, or it is already running
  'unavailable', // a part the procedure needs is not running or not installed
  'not_implemented', // the procedure exists in the contract but its service is not built yet
  'failed', // the operation ran and failed (message says why)
  'internal', // an unexpected exception
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export const ApiErrorSchema = z.object({ code: z.enum(API_ERROR_CODES), message: z.string() });
export type ApiErrorInfo = z.infer<typeof ApiErrorSchema>;

export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiErrorInfo };

/** Thrown by services to produce a specific envelope error; anything else becomes `internal`. */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function ok<T>(value: T): ApiResult<T> {
  return { ok: true, value };
}

export function fail(code: ApiErrorCode, message: string): ApiResult<never> {
  return { ok: false, error: { code, message } };
}

/** Checks the shape of an envelope received from an untrusted transport. */
export const ApiResultSchema = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: ApiErrorSchema }),
]);
