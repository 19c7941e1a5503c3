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

function globMatches(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const re = new RegExp(`^${pattern.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(value);
}
