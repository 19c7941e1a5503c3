// The stable error codes of the API envelope. Apart from the schemas (zod), so that the renderer's
// client can check envelopes without loading zod at start (see guards.ts).
export const API_ERROR_CODES = [
  'unknown_procedure', // no such procedure name
  'invalid_input', // input failed the procedure's zod schema
  'invalid_output', // a service returned something the contract does not allow (a bug, reported not thrown)
  'invalid_config', // a gateway config failed validation
  'not_found', // the gateway / execution / server named does not exist
  'conflict', // e.g. a gateway with that id exists, or it is already running
  'unavailable', // a part the procedure needs is not running or not installed
  'not_implemented', // the procedure exists in the contract but this core has no handler for it
  'failed', // the operation ran and failed (message says why)
  'internal', // an unexpected exception
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
