// cross-boundary-guard (TS security samples): remembers, per session, which server a secret was
// read from (secrets seen verbatim in a response are attributed to the server of that session's
// last request) and blocks a request that sends such a secret to a DIFFERENT server. Writing a
// secret back to the server it came from is allowed; sessions never see each other's taint.
import type { InvocationContext } from '../../../shared/protocol/schemas';
import { validator, type InterceptorRegistration } from '../host/types';
import { applyOverrides, jsonText, type SampleOverrides } from './common';
import { findSecrets, secretRef, type SecretMatch } from './secrets';

/** Tools of well-known reference servers; unknown tools count as their own server. */
export const DEFAULT_TOOL_SERVERS: Readonly<Record<string, string>> = {
  read_file: 'filesystem',
  read_text_file: 'filesystem',
  read_media_file: 'filesystem',
  read_multiple_files: 'filesystem',
  write_file: 'filesystem',
  edit_file: 'filesystem',
  list_directory: 'filesystem',
  search_files: 'filesystem',
  get_file_info: 'filesystem',
  read_query: 'sqlite',
  write_query: 'sqlite',
  create_table: 'sqlite',
  list_tables: 'sqlite',
  describe_table: 'sqlite',
};

export interface CrossBoundaryGuardOptions extends SampleOverrides {
  toolServers?: Record<string, string>;
  /** Bounds memory: sessions beyond this evict the least recently used one. */
  maxSessions?: number;
  /** Bounds memory: tainted secrets per session beyond this evict the oldest. */
  maxSecretsPerSession?: number;
  /**
   * Runs the text scans elsewhere (serve-samples: a worker thread, for large payloads); the session
   * state stays here. Without it the scans run inline.
   */
  scanner?: SecretScanner;
}

/**
 * The guard's two scans over a payload's JSON text. `signal` makes the call's cancellation: a scanner
 * asks for it only when it hands the work elsewhere (the host makes a signal on first read, ~10 µs).
 */
export interface SecretScanner {
  /** findSecrets(text). */
  find(text: string, signal: () => AbortSignal): SecretMatch[] | Promise<SecretMatch[]>;
  /** The members of `secrets` that occur verbatim in `text`. */
  contained(text: string, secrets: string[], signal: () => AbortSignal): string[] | Promise<string[]>;
}

export const inlineSecretScanner: SecretScanner = {
  find: (text) => findSecrets(text),
  contained: (text, secrets) => secrets.filter((s) => text.includes(s)),
};

interface Session {
  /** Server of the last tools/call or resources/read request: responses are attributed to it. */
  lastServer?: string;
  /** secret → servers it was read from. */
  taint: Map<string, { formatId: string; origins: Set<string> }>;
}

interface GuardConfig {
  toolServers?: Record<string, string>;
}

export function crossBoundaryGuard(options: CrossBoundaryGuardOptions = {}): InterceptorRegistration {
  const maxSessions = options.maxSessions ?? 1024;
  const maxSecrets = options.maxSecretsPerSession ?? 256;
  const scanner = options.scanner ?? inlineSecretScanner;
  const sessions = new Map<string, Session>();

  const sessionFor = (context: InvocationContext | undefined): Session => {
    const key = context?.sessionId ?? context?.traceId ?? '(no session)';
    let s = sessions.get(key);
    if (s)
      sessions.delete(key); // re-insert: Map order doubles as LRU order
    else s = { taint: new Map() };
    sessions.set(key, s);
    if (sessions.size > maxSessions) sessions.delete(sessions.keys().next().value as string);
    return s;
  };

  return applyOverrides(
    validator<GuardConfig>({
      name: 'cross-boundary-guard',
      description: 'Blocks a request that sends a secret read from one server to another server (per session); same-server write-back is allowed.',
      version: '1.0.0',
      events: ['tools/call', 'resources/read', 'sampling/createMessage', 'elicitation/create'],
      phase: 'both',
      configSchema: {
        type: 'object',
        properties: { toolServers: { type: 'object', additionalProperties: { type: 'string' } } },
        additionalProperties: false,
      },
      // Synchronous while the scans are (inline, small payloads): the host then answers at once, in the
      // same write as the other validators' answers. `ctx.signal` is read only by a scan that needs it.
      handler: (payload, ctx) => {
        const { event, phase, context, config } = ctx;
        const signal = () => ctx.signal;
        const toolServers = { ...DEFAULT_TOOL_SERVERS, ...options.toolServers, ...config.toolServers };
        const session = sessionFor(context);
        if (phase === 'response') {
          const origin = originOfResponse(event, session);
          // The gateway forwards a response only after its validators answered, so the taint is in place
          // before the client can send the secret anywhere.
          if (!origin) return { valid: true };
          return whenDone(scanner.find(jsonText(payload), signal), (matches) => {
            for (const m of matches) {
              const entry = session.taint.get(m.value) ?? { formatId: m.formatId, origins: new Set<string>() };
              entry.origins.add(origin);
              session.taint.delete(m.value);
              session.taint.set(m.value, entry);
              if (session.taint.size > maxSecrets) session.taint.delete(session.taint.keys().next().value as string);
            }
            return { valid: true };
          });
        }
        const target = targetOfRequest(event, payload, toolServers);
        if (event === 'tools/call' || event === 'resources/read') session.lastServer = target;
        const candidates = [...session.taint].filter(([, t]) => !t.origins.has(target));
        if (candidates.length === 0) return { valid: true };
        const scanned = scanner.contained(
          jsonText(payload),
          candidates.map(([secret]) => secret),
          signal,
        );
        return whenDone(scanned, (found) => {
          const contained = new Set(found);
          const messages = [];
          for (const [secret, { formatId, origins }] of candidates) {
            if (!contained.has(secret)) continue;
            const from = [...origins].sort().join("', '");
            messages.push({
              path: event === 'tools/call' ? '$.arguments' : '$',
              message: `Secret ${secretRef(formatId, secret)} read from server '${from}' must not be sent to '${target}' (cross-boundary flow)`,
              severity: 'error' as const,
            });
          }
          return messages.length ? { valid: false, severity: 'error' as const, messages } : { valid: true };
        });
      },
    }),
    options,
  );
}

/** `then` for a value that may already be there: a synchronous scan keeps the handler synchronous. */
function whenDone<T, R>(value: T | Promise<T>, next: (value: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

function originOfResponse(event: string, session: Session): string | undefined {
  if (event === 'sampling/createMessage') return 'sampling';
  if (event === 'elicitation/create') return 'elicitation';
  return session.lastServer;
}

function targetOfRequest(event: string, payload: unknown, toolServers: Record<string, string>): string {
  const p = (payload ?? {}) as { name?: unknown; uri?: unknown };
  if (event === 'tools/call' && typeof p.name === 'string') return toolServers[p.name] ?? p.name;
  if (event === 'resources/read' && typeof p.uri === 'string') {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(p.uri)?.[1]?.toLowerCase();
    return scheme === 'file' ? 'filesystem' : (scheme ?? 'resources');
  }
  if (event === 'sampling/createMessage') return 'sampling';
  if (event === 'elicitation/create') return 'elicitation';
  return event;
}
