// Parsing a gateway config: JSON text or a value in, either the normalised config or a list of errors out.
// Each error names the JSON path (`staticInterceptors[0].endpoint`) and says what was expected, so that the
// CLI and the Chain screen's JSON tab can print it as is.
import type { z } from 'zod';
import { GatewayConfigSchema, type GatewayConfig, type InterceptorServerEntry } from './schema';

export interface ConfigError {
  /** `backend.command`, `staticInterceptors[1].endpoint`, or `(root)`. */
  path: string;
  message: string;
}

export type ConfigParseResult = { ok: true; config: GatewayConfig } | { ok: false; errors: ConfigError[] };

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(String(key))) out += out ? `.${String(key)}` : String(key);
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out || '(root)';
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')} (check the spelling; see resources/gateway-config.schema.json)`;
  }
  if (issue.code === 'invalid_type' && issue.message.startsWith('Invalid input: expected')) {
    // zod's default wording; keep its "expected X" part, drop the prefix.
    return issue.message.replace(/^Invalid input: /, '');
  }
  return issue.message;
}

/** Validates an already-parsed value. */
export function parseGatewayConfig(value: unknown): ConfigParseResult {
  const result = GatewayConfigSchema.safeParse(value);
  if (!result.success) {
    const errors = result.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issueMessage(issue) }));
    return { ok: false, errors };
  }
  const semantic = checkSemantics(result.data);
  return semantic.length > 0 ? { ok: false, errors: semantic } : { ok: true, config: result.data };
}

/** Parses JSON text (a config file's content). */
export function parseGatewayConfigText(text: string): ConfigParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, errors: [{ path: '(root)', message: `not valid JSON: ${(err as Error).message}` }] };
  }
  return parseGatewayConfig(value);
}

/** One line per error: `path: message`. */
export function formatConfigErrors(errors: readonly ConfigError[]): string {
  return errors.map((e) => `${e.path}: ${e.message}`).join('\n');
}

/** Rules a schema cannot express: unique server names (they are half of an interceptor's identity, A7). */
function checkSemantics(config: GatewayConfig): ConfigError[] {
  const errors: ConfigError[] = [];
  const seen = new Map<string, string>();
  config.staticInterceptors.forEach((entry, i) => {
    const path = `staticInterceptors[${i}].name`;
    const prior = seen.get(entry.name);
    if (prior) errors.push({ path, message: `duplicate interceptor server name "${entry.name}" (also at ${prior}); names must be unique` });
    else seen.set(entry.name, path);
  });
  const principals = new Map<string, string>();
  for (const [principal, entries] of Object.entries(config.dynamicInterceptors)) {
    const lower = principal.toLowerCase();
    const other = principals.get(lower);
    if (other !== undefined) {
      errors.push({
        path: formatPath(['dynamicInterceptors', principal]),
        message: `principal keys are case-insensitive: "${principal}" and "${other}" are the same principal; merge them`,
      });
    }
    principals.set(lower, principal);
    entries.forEach((entry, i) => {
      const prior = seen.get(entry.name);
      if (prior?.startsWith('staticInterceptors')) {
        errors.push({
          path: formatPath(['dynamicInterceptors', principal, i, 'name']),
          message: `interceptor server name "${entry.name}" is already used by ${prior}; names must be unique`,
        });
      }
    });
  }
  return errors;
}

/** Dynamic interceptor servers for a principal; keys match case-insensitively (reference format). */
export function dynamicServersFor(config: GatewayConfig, principal: string | undefined): InterceptorServerEntry[] {
  if (!principal) return [];
  const wanted = principal.toLowerCase();
  for (const [key, entries] of Object.entries(config.dynamicInterceptors)) {
    if (key.toLowerCase() === wanted) return entries;
  }
  return [];
}

/** `recording` normalised: true unless turned off. */
export function recordingEnabled(config: GatewayConfig): boolean {
  return typeof config.recording === 'boolean' ? config.recording : config.recording.enabled;
}
