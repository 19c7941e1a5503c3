// The result envelope every API procedure returns, over IPC, HTTP and WebSocket alike.
// Errors cross the boundary as plain {code, message}: Electron keeps only an Error's message,
// and the renderer needs a stable code to decide what to show.
import { z } from 'zod';
import { API_ERROR_CODES, type ApiErrorCode } from './error-codes';

export { API_ERROR_CODES, type ApiErrorCode };

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
export const ApiResultSchema = z.union([z.object({ ok: z.literal(true), value: z.unknown() }), z.object({ ok: z.literal(false), error: ApiErrorSchema })]);
