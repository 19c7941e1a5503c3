// Which parts of a gateway config are credentials: bearer tokens (the keys of listen.tokens, control.token), backend
// and interceptor-server environment variables and HTTP header values. What the history keeps of a
// config (recorded by a gateway, or imported from an export) has them replaced: what was set stays
// visible, the secret does not. Works on any JSON value, valid config or not, and is idempotent (a
// config without secrets comes back unchanged), so an export of a history imports back byte for byte.

export const REDACTED = '[redacted]';

/** Maps whose values are secrets: every value is replaced, every name kept. */
const SECRET_VALUES = new Set(['env', 'headers']);

function redact(value: unknown, key: string | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => redact(v, undefined));
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  // Bearer token → principal: the token is the key. Numbered, so two tokens stay two entries.
  if (key === 'tokens') return Object.fromEntries(entries.map(([, principal], i) => [`${REDACTED} #${i + 1}`, principal]));
  // The control endpoint's token (it lets its holder rewrite live calls).
  if (key === 'control' && typeof (value as { token?: unknown }).token === 'string') return { ...(value as object), token: REDACTED };
  if (key !== undefined && SECRET_VALUES.has(key)) return Object.fromEntries(entries.map(([k]) => [k, REDACTED]));
  return Object.fromEntries(entries.map(([k, v]) => [k, redact(v, k)]));
}

/** A copy of a gateway config (or any JSON value) without its credentials. */
export function withoutConfigSecrets(config: unknown): unknown {
  return redact(config, undefined);
}
