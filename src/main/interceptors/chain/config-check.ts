// Invoker-side check of an interceptor's `config` against its descriptor's `configSchema` (A12), so that a
// config the host is bound to refuse (-32602 on every invoke) is a configuration error reported at
// discovery (gateway card, Chain palette, gateway log, CLI `list`). When the config is missing altogether
// the interceptor is skipped with reason 'config-invalid' instead of blocking every request it hooks
// (issue #14: tool-allowlist without `config.allow`).
//
// Only a usable schema is checked: a JSON object whose root `type` is "object" (or absent) and that ajv
// compiles. Anything else (the TS reference may send other shapes) is accepted and not checked.
// Without a configured config the host applies its own defaults, which the invoker cannot see: then only
// `required` properties that have no `default` count as missing (ajv's useDefaults fills the rest).
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { InterceptorDescriptor } from '../../../shared/protocol/schemas';
import { interceptorId, overrideFor } from './overrides';
import type { DiscoveredInterceptor, OverrideMap } from './types';

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, validateSchema: false });
/** Descriptors are cached per discovery, so their schema objects are stable keys. */
const compiled = new WeakMap<object, ValidateFunction | null>();
const byText = new Map<string, ValidateFunction | null>();

/** The validator of a usable configSchema, or undefined when the schema is absent or unusable. */
export function usableConfigSchema(schema: unknown): ValidateFunction | undefined {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return undefined;
  const type = (schema as { type?: unknown }).type;
  if (type !== undefined && type !== 'object') return undefined;
  let validate = compiled.get(schema);
  if (validate === undefined) {
    // Keyed by text too: a rediscovered descriptor is a new object, and ajv refuses to compile a second
    // schema with the same `$id`.
    const text = JSON.stringify(schema);
    validate = byText.get(text);
    if (validate === undefined) {
      try {
        validate = ajv.compile(schema);
      } catch {
        validate = null; // a schema ajv cannot compile is not usable: accepted, not checked
      }
      if (byText.size >= 1024) byText.clear();
      byText.set(text, validate);
    }
    compiled.set(schema, validate);
  }
  return validate ?? undefined;
}

/** Why `config` (undefined: none configured) cannot work with this descriptor, or undefined when it can. */
export function configProblem(descriptor: Pick<InterceptorDescriptor, 'configSchema'>, config: Record<string, unknown> | undefined): string | undefined {
  const validate = usableConfigSchema(descriptor.configSchema);
  if (!validate) return undefined;
  // useDefaults writes into the value: validate a copy.
  const value = config === undefined ? {} : structuredClone(config);
  if (validate(value)) return undefined;
  const errors = describe(validate.errors ?? []);
  return config === undefined ? `no config is set and its configSchema requires one (${errors})` : `its config does not match its configSchema (${errors})`;
}

export interface ConfigError {
  /** `server/name` */
  id: string;
  server: string;
  interceptor: string;
  message: string;
}

/** Every discovered interceptor whose effective config cannot work, with a sentence that says how to fix it. */
export function configErrors(discovered: readonly DiscoveredInterceptor[], overrides: OverrideMap | undefined): ConfigError[] {
  const out: ConfigError[] = [];
  for (const d of discovered) {
    const o = overrideFor(overrides, d.server, d.descriptor.name);
    if (o?.enabled === false) continue;
    const problem = configProblem(d.descriptor, o?.config);
    if (!problem) continue;
    const id = interceptorId(d.server, d.descriptor.name);
    out.push({ id, server: d.server, interceptor: d.descriptor.name, message: configErrorMessage(id, problem, o?.config !== undefined) });
  }
  return out;
}

/**
 * A missing config makes the interceptor skipped (enabling a server as it comes must not block every call);
 * a config that was written but is wrong is still invoked, and the host's refusal blocks fail-closed (the
 * operator meant it to run). Both are reported the same way at discovery.
 */
export function configErrorMessage(id: string, problem: string, configured: boolean): string {
  const effect = configured ? 'the host refuses every invoke, so every call it hooks is blocked (fail-closed)' : 'it is skipped (not invoked)';
  return `${id}: ${problem}; ${effect} until overrides["${id}"].config is set to a valid config, or disable it with enabled:false`;
}

function describe(errors: ErrorObject[]): string {
  return errors
    .slice(0, 3)
    .map((e) => {
      const p = e.params as Record<string, unknown>;
      const at = `config${e.instancePath.replace(/\//g, '.')}`;
      if (e.keyword === 'required' && typeof p.missingProperty === 'string') return `${at}.${p.missingProperty} is required`;
      return `${at} ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
}
