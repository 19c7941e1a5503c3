// Invoker policy (A11): overrides keyed `<server>/<interceptor>`. Hooks may only narrow what the
// interceptor declared: an override that would make the engine invoke an interceptor for an event
// or phase its author never agreed to handle is a configuration error, not a policy.
import { z } from 'zod';
import type { Phase } from '../../../shared/protocol/constants';
import { patternCovers } from '../../../shared/protocol/events';
import { HookSchema, ModeSchema, PriorityHintSchema } from '../../../shared/protocol/schemas';
import type { Hook, InterceptorDescriptor } from '../../../shared/protocol/schemas';
import type { DiscoveredInterceptor, InterceptorOverride, OverrideMap } from './types';

export const InterceptorOverrideSchema = z.strictObject({
  enabled: z.boolean().optional(),
  mode: ModeSchema.optional(),
  failOpen: z.boolean().optional(),
  priorityHint: PriorityHintSchema.optional(),
  timeoutMs: z.number().int().positive().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  hooks: z.array(HookSchema).optional(),
});

/** `<server>/<interceptor>`; interceptor names may themselves contain "/". */
export const OverrideMapSchema = z.record(z.string().regex(/^[^/]+\/.+$/, 'key must be "<server>/<interceptor>"'), InterceptorOverrideSchema);

export function interceptorId(server: string, name: string): string {
  return `${server}/${name}`;
}

/** Thrown when an override's hooks would widen the declared hooks. */
export class OverrideWideningError extends Error {
  override name = 'OverrideWideningError';
  constructor(
    /** `<server>/<interceptor>` */
    readonly key: string,
    readonly phase: Phase,
    /** The event pattern that is not covered; absent when the whole phase is undeclared. */
    readonly event: string | undefined,
    readonly reason: string,
  ) {
    super(`Override for ${key} widens its hooks: ${reason}. Overrides may only narrow the declared hooks; remove it or declare it on the interceptor.`);
  }
}

// patternCovers lives with the other hook matching (the host's list filter uses it too).
export { patternCovers };

/** Returns the effective hooks, throwing OverrideWideningError if `requested` widens `declared`. */
export function narrowHooks(key: string, declared: readonly Hook[], requested: readonly Hook[] | undefined): Hook[] {
  if (!requested) return declared.map((h) => ({ events: [...h.events], phase: h.phase }));
  for (const hook of requested) {
    const sameLane = declared.filter((d) => d.phase === hook.phase);
    if (sameLane.length === 0) {
      throw new OverrideWideningError(key, hook.phase, undefined, `phase '${hook.phase}' is not declared`);
    }
    for (const ev of hook.events) {
      const covered = sameLane.some((d) => d.events.some((p) => patternCovers(p, ev, hook.phase)));
      if (!covered) {
        throw new OverrideWideningError(key, hook.phase, ev, `event '${ev}' is not declared for phase '${hook.phase}'`);
      }
    }
  }
  return requested.map((h) => ({ events: [...h.events], phase: h.phase }));
}

export interface OverrideIssue {
  key: string;
  /** JSON-ish path inside the override, e.g. `hooks[0].events[1]`. */
  path: string;
  kind: 'invalid' | 'widening' | 'unknown-interceptor';
  /** Unknown interceptors are warnings (their server may be down); the rest are errors. */
  severity: 'error' | 'warning';
  message: string;
}

/**
 * Checks overrides against the discovered descriptors so a config file or the UI can report
 * problems at load time instead of at the first request.
 */
export function validateOverrides(overrides: unknown, discovered: readonly DiscoveredInterceptor[]): OverrideIssue[] {
  const issues: OverrideIssue[] = [];
  if (overrides === undefined || overrides === null) return issues;
  const parsed = OverrideMapSchema.safeParse(overrides);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [key, ...rest] = issue.path.map(String);
      issues.push({ key: key ?? '', path: rest.join('.'), kind: 'invalid', severity: 'error', message: issue.message });
    }
    return issues;
  }
  const byId = new Map(discovered.map((d) => [interceptorId(d.server, d.descriptor.name), d.descriptor]));
  for (const [key, override] of Object.entries(parsed.data)) {
    const descriptor = byId.get(key);
    if (!descriptor) {
      issues.push({
        key,
        path: '',
        kind: 'unknown-interceptor',
        severity: 'warning',
        message: `No discovered interceptor is named ${key}; check the server name and the interceptor name.`,
      });
      continue;
    }
    const widening = findWidening(key, descriptor, override as InterceptorOverride);
    if (widening) issues.push(widening);
  }
  return issues;
}

function findWidening(key: string, descriptor: InterceptorDescriptor, override: InterceptorOverride): OverrideIssue | undefined {
  try {
    narrowHooks(key, descriptor.hooks, override.hooks);
    return undefined;
  } catch (err) {
    if (!(err instanceof OverrideWideningError)) throw err;
    const hookIndex = override.hooks?.findIndex((h) => h.phase === err.phase && (err.event === undefined || h.events.includes(err.event))) ?? -1;
    const eventIndex = err.event === undefined || hookIndex < 0 ? -1 : (override.hooks?.[hookIndex]?.events.indexOf(err.event) ?? -1);
    const path = hookIndex < 0 ? 'hooks' : eventIndex < 0 ? `hooks[${hookIndex}].phase` : `hooks[${hookIndex}].events[${eventIndex}]`;
    return { key, path, kind: 'widening', severity: 'error', message: err.message };
  }
}

export function overrideFor(overrides: OverrideMap | undefined, server: string, name: string): InterceptorOverride | undefined {
  return overrides?.[interceptorId(server, name)];
}
