// What the history keeps of a gateway's config ("which chain produced this execution?"): the
// config as run, minus its secrets. Bearer tokens, backend environment variables and HTTP header
// values are credentials more often than not; what was set stays visible, the secret does not.
import type { GatewayConfig } from '../../shared/config/schema';

export const REDACTED = '[redacted]';

/** Maps whose values are secrets: every value is replaced, every name kept. */
const SECRET_VALUES = new Set(['env', 'headers']);

function redactSecrets(value: unknown, key: string | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, undefined));
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  // Bearer token → principal: the token is the key. Numbered, so two tokens stay two entries.
  if (key === 'tokens') return Object.fromEntries(entries.map(([, principal], i) => [`${REDACTED} #${i + 1}`, principal]));
  if (key !== undefined && SECRET_VALUES.has(key)) return Object.fromEntries(entries.map(([k]) => [k, REDACTED]));
  return Object.fromEntries(entries.map(([k, v]) => [k, redactSecrets(v, k)]));
}

export function configSnapshot(config: GatewayConfig): unknown {
  return redactSecrets(config, undefined);
}
