// THE ordering function: the only place the engine (and, through the API, the UI) computes which
// interceptors apply to an event and phase, and in which order mutations run.
import type { Phase } from '../../../shared/protocol/constants';
import { hookMatches } from '../../../shared/protocol/events';
import type { Compat, InterceptorType, PriorityHint } from '../../../shared/protocol/schemas';
import type { Pass, SkipReason } from '../../../shared/trace/types';
import { configErrorMessage, configProblem } from './config-check';
import { interceptorId, narrowHooks, overrideFor } from './overrides';
import { effectiveSettings } from '../../../shared/config/effective-settings';
import type { ChainPlan, DiscoveredInterceptor, OrderInput, PlannedEntry, SkippedEntry } from './types';

/** Override hint ?? descriptor hint ?? 0; a scalar covers both phases, an object uses [phase] ?? 0. */
export function effectivePriority(phase: Phase, descriptorHint?: PriorityHint, overrideHint?: PriorityHint): number {
  const hint = overrideHint ?? descriptorHint;
  if (hint === undefined) return 0;
  if (typeof hint === 'number') return hint;
  return hint[phase] ?? 0;
}

/** Ordinal comparison by UTF-16 code units (A6). Never localeCompare: order must not depend on the locale. */
export function compareOrdinal(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A17: protocol versions are ISO dates, so string comparison is chronological. */
export function compatExcludes(compat: Compat | undefined, protocolVersion: string | undefined): string | undefined {
  if (!compat || !protocolVersion) return undefined;
  if (protocolVersion < compat.minProtocol) {
    return `requires protocol ${compat.minProtocol} or later; negotiated ${protocolVersion}`;
  }
  if (compat.maxProtocol !== undefined && protocolVersion > compat.maxProtocol) {
    return `supports protocol up to ${compat.maxProtocol}; negotiated ${protocolVersion}`;
  }
  return undefined;
}

export function passOf(type: InterceptorType): Pass {
  return type;
}

/** Applies the overrides to one discovered interceptor (throws OverrideWideningError on widening hooks). */
export function planEntry(item: DiscoveredInterceptor, phase: Phase, input: Pick<OrderInput, 'overrides'>): PlannedEntry {
  const d = item.descriptor;
  const id = interceptorId(item.server, d.name);
  const o = overrideFor(input.overrides, item.server, d.name);
  const effective = effectiveSettings(d, o);
  const entry: PlannedEntry = {
    id,
    server: item.server,
    name: d.name,
    type: d.type,
    pass: passOf(d.type),
    serverIndex: item.serverIndex,
    listIndex: item.listIndex,
    // The one computation of declared + override that the views show too (A5: legacy `enforce` is `active`).
    enabled: effective.enabled.value,
    mode: effective.mode.value,
    failOpen: effective.failOpen.value,
    priority: effective.priority[phase].value,
    hooks: narrowHooks(id, d.hooks, o?.hooks),
  };
  if (o?.timeoutMs !== undefined) entry.timeoutMs = o.timeoutMs;
  if (o?.config !== undefined) entry.config = o.config;
  return entry;
}

function skipReason(entry: PlannedEntry, item: DiscoveredInterceptor, input: OrderInput): { reason: SkipReason; detail?: string } | undefined {
  const failed = input.failedServers;
  const failure = failed instanceof Map ? failed.get(item.server) : (failed as Readonly<Record<string, string>> | undefined)?.[item.server];
  if (failure !== undefined) return { reason: 'discovery-failed', detail: failure };
  if (!entry.hooks.some((h) => hookMatches(h, input.event, input.phase))) {
    const other: Phase = input.phase === 'request' ? 'response' : 'request';
    if (entry.hooks.some((h) => hookMatches(h, input.event, other))) {
      return { reason: 'other-phase', detail: `hooks ${input.event} only in the ${other} phase` };
    }
    return { reason: 'event-not-hooked', detail: `no hook covers ${input.event}` };
  }
  if (!entry.enabled) return { reason: 'disabled', detail: 'disabled by override' };
  // No config where the schema requires one: every invoke would be refused. That is a configuration error
  // (reported at discovery), not a reason to block every request it hooks. A written but wrong config
  // still runs and blocks fail-closed (see config-check.ts).
  const config = entry.config === undefined ? configProblem(item.descriptor, undefined) : undefined;
  if (config) return { reason: 'config-invalid', detail: configErrorMessage(entry.id, config, false) };
  const compat = compatExcludes(item.descriptor.compat, input.protocolVersion);
  if (compat) return { reason: 'compat', detail: compat };
  return undefined;
}

/** Ordinal name, then configured server order, then host list order (the mutation sort minus priority). */
function compareIdentity(a: PlannedEntry, b: PlannedEntry): number {
  return compareOrdinal(a.name, b.name) || a.serverIndex - b.serverIndex || a.listIndex - b.listIndex;
}

export function compareMutations(a: PlannedEntry, b: PlannedEntry): number {
  return a.priority - b.priority || compareIdentity(a, b);
}

/**
 * Computes the chain for one event and phase: applicable mutations in execution order,
 * validations and sinks (parallel; listed in a stable identity order), and every other
 * discovered interceptor with the reason it does not run. Pure and JSON-in/JSON-out.
 */
export function orderChain(input: OrderInput): ChainPlan {
  const plan: ChainPlan = { event: input.event, phase: input.phase, mutations: [], validations: [], sinks: [], skipped: [] };
  for (const item of input.interceptors) {
    const entry = planEntry(item, input.phase, input);
    const skip = skipReason(entry, item, input);
    if (skip) {
      const skipped: SkippedEntry = { ...entry, reason: skip.reason };
      if (skip.detail !== undefined) skipped.detail = skip.detail;
      plan.skipped.push(skipped);
    } else if (entry.type === 'mutation') plan.mutations.push(entry);
    else if (entry.type === 'validation') plan.validations.push(entry);
    else plan.sinks.push(entry);
  }
  plan.mutations.sort(compareMutations);
  plan.validations.sort(compareIdentity);
  plan.sinks.sort(compareIdentity);
  plan.skipped.sort(compareIdentity);
  return plan;
}
