// The reusable chain for one set of interceptor servers: what a gateway holds and calls per
// message. Discovery is cached by the handles (A15, per connection); the runtime memoizes the
// merged list and the per-event plans as long as every handle returns the same cached result, so
// the hot path costs one cached discover() per server and no sorting.
import type { Phase } from '../../../shared/protocol/constants';
import type { InterceptorServerHandle } from '../server-handle';
import { assertUniqueServerNames, listAll, mergeDiscovery } from './discovery';
import type { DiscoverOptions, DiscoveryOutcome, RawDiscovery } from './discovery';
import { orderChain } from './order';
import { OverrideMapSchema, validateOverrides } from './overrides';
import type { OverrideIssue } from './overrides';
import { ChainClock, disposeAfterSinks, executePlan } from './run';
import type { ChainPlan, ChainResult, DiscoveredInterceptor, OverrideMap, RunOptions } from './types';

export interface ChainRuntimeOptions {
  overrides?: OverrideMap;
  /** Negotiated protocol version for compat checks (A17). */
  protocolVersion?: string;
}

export class ChainRuntime {
  private readonly handles: readonly InterceptorServerHandle[];
  private readonly byName: Map<string, InterceptorServerHandle>;
  private overrides: OverrideMap | undefined;
  private protocolVersion: string | undefined;
  private lastRaw?: RawDiscovery;
  private outcome?: DiscoveryOutcome;
  private readonly plans = new Map<string, ChainPlan>();
  private readonly lastKnown = new Map<string, DiscoveredInterceptor[]>();

  constructor(handles: readonly InterceptorServerHandle[], options: ChainRuntimeOptions = {}) {
    assertUniqueServerNames(handles);
    this.handles = [...handles];
    this.byName = new Map(handles.map((h) => [h.name, h]));
    this.setOverrides(options.overrides);
    this.protocolVersion = options.protocolVersion;
  }

  get servers(): readonly InterceptorServerHandle[] {
    return this.handles;
  }

  /** Replaces the overrides (shape-checked; hook widening is reported by validateOverrides / thrown by plan). */
  setOverrides(overrides: OverrideMap | undefined): void {
    let normalised: OverrideMap | undefined;
    if (overrides !== undefined) {
      const parsed = OverrideMapSchema.safeParse(overrides);
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        throw new Error(`Invalid interceptor overrides at ${first?.path.map(String).join('.') ?? ''}: ${first?.message ?? 'invalid'}`);
      }
      // Parsed, so legacy `enforce` is already `active` (A5).
      normalised = parsed.data as OverrideMap;
    }
    this.overrides = normalised;
    this.plans.clear();
  }

  setProtocolVersion(version: string | undefined): void {
    this.protocolVersion = version;
    this.plans.clear();
  }

  /** Lists on every server in parallel (handles answer from their cache unless `refresh`). */
  async discover(options: DiscoverOptions = {}): Promise<DiscoveryOutcome> {
    const raw = await listAll(this.handles, options);
    if (this.outcome && this.lastRaw && sameRaw(this.lastRaw, raw)) return this.outcome;
    const outcome = mergeDiscovery(this.handles, raw, this.lastKnown);
    raw.forEach((r, i) => {
      const name = this.handles[i]?.name;
      if (r.ok && name !== undefined)
        this.lastKnown.set(
          name,
          outcome.interceptors.filter((d) => d.server === name),
        );
    });
    this.lastRaw = raw;
    this.outcome = outcome;
    this.plans.clear();
    return outcome;
  }

  /**
   * The last outcome, when every server's cached discovery is still the one it was merged from: what
   * discover() would return, without an await (and a race against the deadline) per server per message.
   */
  private cachedOutcome(): DiscoveryOutcome | undefined {
    const { outcome, lastRaw } = this;
    if (!outcome || !lastRaw || lastRaw.length !== this.handles.length) return undefined;
    for (let i = 0; i < this.handles.length; i++) {
      const last = lastRaw[i];
      const now = this.handles[i]!.discoveredNow?.();
      if (!now || !last?.ok || last.result !== now) return undefined;
    }
    return outcome;
  }

  /** The plan for one event and phase on the current discovery (what the Chain screen draws). */
  async plan(event: string, phase: Phase, options: DiscoverOptions & { protocolVersion?: string } = {}): Promise<ChainPlan> {
    return this.planFor(await this.discover(options), event, phase, options.protocolVersion);
  }

  /** Override problems against what the servers currently list (for config load and the UI). */
  async validateOverrides(options: DiscoverOptions = {}): Promise<OverrideIssue[]> {
    const outcome = await this.discover(options);
    return validateOverrides(this.overrides, outcome.interceptors);
  }

  /**
   * Runs the chain for one message. Throws OverrideWideningError on a widening override (a config
   * error: call validateOverrides at load time) and ChainCancelledError when options.signal fires.
   */
  async run(event: string, phase: Phase, payload: unknown, options: RunOptions = {}): Promise<ChainResult> {
    const clock = new ChainClock(options.timeoutMs, options.signal);
    let result: ChainResult | undefined;
    try {
      const outcome = this.cachedOutcome() ?? (await this.discover({ signal: clock.signal, aborted: clock.aborted }));
      const plan = this.planFor(outcome, event, phase, options.protocolVersion);
      result = await executePlan({
        plan,
        payload,
        handleFor: (server) => this.byName.get(server),
        discovery: outcome.records,
        ...(outcome.blocking ? { discoveryBlock: outcome.blocking } : {}),
        options,
        clock,
      });
      return result;
    } finally {
      disposeAfterSinks(clock, result);
    }
  }

  private planFor(outcome: DiscoveryOutcome, event: string, phase: Phase, version?: string): ChainPlan {
    const protocolVersion = version ?? this.protocolVersion;
    const key = `${phase}\u0000${event}\u0000${protocolVersion ?? ''}`;
    let plan = this.plans.get(key);
    if (!plan) {
      plan = orderChain({
        event,
        phase,
        interceptors: outcome.interceptors,
        ...(this.overrides ? { overrides: this.overrides } : {}),
        ...(protocolVersion ? { protocolVersion } : {}),
        failedServers: outcome.failedOpen,
      });
      // Bounded: events are a small set in practice, but a hostile client could invent many.
      if (this.plans.size > 256) this.plans.clear();
      this.plans.set(key, plan);
    }
    return plan;
  }
}

/** Same iff every server answered with the very same cached result object (and none failed). */
function sameRaw(a: RawDiscovery, b: RawDiscovery): boolean {
  return (
    a.length === b.length &&
    a.every((x, i) => {
      const y = b[i];
      return x.ok && y?.ok === true && x.result === y.result;
    })
  );
}
