// Checks an invoke's `config` against the interceptor's `configSchema` (A12) with ajv, and turns
// ajv's errors into one sentence that names the failing path, e.g. `config.allow[0] must be string`.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { ConfigSchema } from '../../../shared/protocol/schemas';

// strict:false: authors may use annotation keywords (title, examples, x-…) that ajv would refuse.
const ajv = new Ajv({ allErrors: true, strict: false });

export type ConfigValidator = (config: unknown) => string | undefined;

/** Compiles the schema once; throws at registration when the schema itself is broken. */
export function compileConfigSchema(interceptor: string, schema: ConfigSchema): ConfigValidator {
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    throw new Error(`Interceptor '${interceptor}' has an invalid configSchema: ${(err as Error).message}`);
  }
  return (config) => (validate(config) ? undefined : describeErrors(validate.errors ?? []));
}

function describeErrors(errors: ErrorObject[]): string {
  return errors
    .slice(0, 5)
    .map((e) => `${pointerToPath(e.instancePath)} ${e.message ?? 'is invalid'}${describeParams(e)}`)
    .join('; ');
}

function describeParams(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties' && typeof p.additionalProperty === 'string') {
    return ` ('${p.additionalProperty}')`;
  }
  if (e.keyword === 'enum' && Array.isArray(p.allowedValues)) return `: ${JSON.stringify(p.allowedValues)}`;
  return '';
}

/** JSON pointer `/allow/0` → `config.allow[0]`. */
function pointerToPath(pointer: string): string {
  let path = 'config';
  if (!pointer) return path;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(seg) ? `[${seg}]` : /^[A-Za-z_$][\w$]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`;
  }
  return path;
}
