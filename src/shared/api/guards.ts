// Shape checks of what a transport delivers to the client (envelopes, pushed events), written by hand
// instead of with the zod schemas: the client is the renderer's start bundle, and zod with the schemas
// it would build at load was a quarter of it, parsed and run before the first screen could render. The
// core checks every value against the contract before sending it (the dispatcher's output schemas), so
// here only the shape the client relies on is checked. test/app/api-guards.test.ts holds them to the
// zod schemas.
import { API_ERROR_CODES } from './error-codes';
import type { ApiResult } from './envelope';
import type { ApiEvent } from './events';

type Kind = 'string' | 'number' | 'boolean' | 'array' | 'string?';

// Keyed by every event type: a new event in events.ts fails to compile until it is described here.
const EVENT_FIELDS: Record<ApiEvent['type'], Record<string, Kind>> = {
  'gateway.status': { id: 'string', status: 'string', error: 'string?' },
  'executions.new': { gateway: 'string', count: 'number' },
  'messages.new': { gateway: 'string', count: 'number' },
  'tables.changed': { tables: 'array' },
  'gateway.reloaded': { id: 'string', at: 'string', restarted: 'boolean' },
  'client.requests': { sessionId: 'string', pending: 'number' },
  'client.authorizations': { waiting: 'number' },
  'pauses.changed': { gateway: 'string' },
  'replay.progress': { jobId: 'string', state: 'string', done: 'number', total: 'number' },
};

const CODES: ReadonlySet<string> = new Set(API_ERROR_CODES);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function has(v: unknown, kind: Kind): boolean {
  if (kind === 'string?') return v === undefined || typeof v === 'string';
  if (kind === 'array') return Array.isArray(v) && v.length > 0;
  return typeof v === kind;
}

export function isApiResult(raw: unknown): raw is ApiResult<unknown> {
  if (!isRecord(raw)) return false;
  if (raw.ok === true) return 'value' in raw;
  if (raw.ok !== false || !isRecord(raw.error)) return false;
  return typeof raw.error.code === 'string' && CODES.has(raw.error.code) && typeof raw.error.message === 'string';
}

export function isApiEvent(raw: unknown): raw is ApiEvent {
  if (!isRecord(raw) || typeof raw.type !== 'string' || !Object.hasOwn(EVENT_FIELDS, raw.type)) return false;
  const fields = EVENT_FIELDS[raw.type as ApiEvent['type']];
  for (const key in fields) if (!has(raw[key], fields[key]!)) return false;
  return true;
}
