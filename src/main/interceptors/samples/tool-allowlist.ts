// tool-allowlist: blocks a tools/call of any tool not named in `config.allow` (exact names or
// globs such as `read_*`). Without a config the host answers -32602: an allowlist must be explicit.
import { validator, type InterceptorRegistration } from '../host/types';
import { applyOverrides, type SampleOverrides } from './common';

interface AllowlistConfig {
  allow: string[];
}

export function toolAllowlist(overrides?: SampleOverrides): InterceptorRegistration {
  return applyOverrides(
    validator<AllowlistConfig>({
      name: 'tool-allowlist',
      description: 'Blocks calls to tools that are not in the configured allowlist (config.allow: names or globs like "read_*").',
      version: '1.0.0',
      events: ['tools/call'],
      phase: 'request',
      configSchema: {
        type: 'object',
        properties: { allow: { type: 'array', items: { type: 'string' } } },
        required: ['allow'],
      },
      handler: (payload, { config }) => {
        const tool = (payload as { name?: unknown } | null)?.name;
        if (typeof tool !== 'string') {
          return {
            valid: false,
            severity: 'error',
            messages: [{ path: '$.name', message: 'tools/call payload carries no tool name', severity: 'error' }],
          };
        }
        if (config.allow.some((pattern) => globMatches(pattern, tool))) return { valid: true };
        return {
          valid: false,
          severity: 'error',
          messages: [{ path: '$.name', message: `Tool '${tool}' is not in the allowlist`, severity: 'error' }],
        };
      },
    }),
    overrides,
  );
}

/**
 * `*` matches any run of characters but line breaks (as the `.*` of the regex this replaces), everything
 * else itself. Greedy two-pointer matching: on a mismatch only the last `*` is retried one character
 * further, so the cost is O(name × pattern), linear in the tool name (a regex of `.*` parts backtracks
 * polynomially on a long name). A `*` never extends over a line break: never more permissive.
 */
/** What `.` in a regex does not match: \n, \r, U+2028, U+2029. */
function isLineBreak(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

export function globMatches(pattern: string, value: string): boolean {
  let p = 0;
  let v = 0;
  let star = -1; // position of the last `*` seen in the pattern
  let resume = 0; // where in the value that `*` currently stops
  while (v < value.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === value[v]) {
      p++;
      v++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = v;
    } else if (star >= 0 && !isLineBreak(value.charCodeAt(resume))) {
      p = star + 1;
      v = ++resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
