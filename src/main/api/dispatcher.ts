// The one validating dispatcher: every adapter (Electron IPC, web HTTP, web WebSocket, tests)
// calls dispatch(name, input) and gets an envelope back. It never throws: bad input, a missing
// handler, a service exception and a contract-breaking output all become envelope errors.
import type { z } from 'zod';
import { ApiError, type ApiResult } from '../../shared/api/envelope';
import { isProcedureName, procedures, type ProcedureArgs, type ProcedureName, type ProcedureOutput } from '../../shared/api/procedures';
import type { Logger } from '../services/environment';

export type Handler<N extends ProcedureName> = (input: ProcedureArgs<N>) => Promise<ProcedureOutput<N>> | ProcedureOutput<N>;
export type Handlers = { [N in ProcedureName]?: Handler<N> };

export interface Dispatcher {
  dispatch(name: unknown, input: unknown): Promise<ApiResult<unknown>>;
}

export function createDispatcher(handlers: Handlers, logger: Logger): Dispatcher {
  return {
    async dispatch(name, input) {
      if (!isProcedureName(name)) {
        return { ok: false, error: { code: 'unknown_procedure', message: `Unknown procedure ${JSON.stringify(name)}.` } };
      }
      const spec = procedures[name];
      const parsedInput = (spec.input as z.ZodType).safeParse(input);
      if (!parsedInput.success) {
        return { ok: false, error: { code: 'invalid_input', message: `${name}: ${describeIssues(parsedInput.error)}` } };
      }
      const handler = handlers[name] as ((input: unknown) => unknown) | undefined;
      if (!handler) {
        return { ok: false, error: { code: 'not_implemented', message: `${name} has no handler in this console.` } };
      }
      let value: unknown;
      try {
        value = await handler(parsedInput.data);
      } catch (err) {
        if (err instanceof ApiError) return { ok: false, error: { code: err.code, message: err.message } };
        logger.error(`api ${name} failed`, err);
        return { ok: false, error: { code: 'internal', message: `${name} failed unexpectedly: ${err instanceof Error ? err.message : String(err)}` } };
      }
      const parsedOutput = (spec.output as z.ZodType).safeParse(value);
      if (!parsedOutput.success) {
        // A service bug: report it to the caller instead of sending an off-contract value.
        logger.error(`api ${name} returned an off-contract value: ${describeIssues(parsedOutput.error)}`);
        return { ok: false, error: { code: 'invalid_output', message: `${name} produced an invalid result: ${describeIssues(parsedOutput.error)}` } };
      }
      return { ok: true, value: parsedOutput.data };
    },
  };
}

/** "path.to.field: message; other: message", the form every error in the app uses. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`)
    .join('; ');
}

export type { ProcedureName };
