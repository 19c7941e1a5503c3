// The ChainPort: a gateway's chain computed and run by the chain engine itself (never re-implemented
// here) over the pool's connections. `order` is what the Chain screen draws; `dryRun` runs the whole
// chain on a payload with no backend, which is what the Playground's Dry-run tab shows.
import { ApiError } from '../../../shared/api/envelope';
import { dynamicServersFor, type GatewayConfig } from '../../../shared/config';
import type { Phase } from '../../../shared/protocol/constants';
import type { InvocationContext } from '../../../shared/protocol/schemas';
import type { ChainTrace } from '../../../shared/trace/types';
import { ChainRuntime, OverrideWideningError, type ChainPlan, type PlannedEntry, type SkippedEntry } from '../../interceptors/chain';
import type { InterceptorServerHandle } from '../../interceptors/server-handle';
import type { ChainPort, OrderedInterceptorView } from '../ports';
import type { InterceptorServerPool } from './pool';

export interface DryRunOptions {
  context?: InvocationContext;
}

interface CachedRuntime {
  handles: readonly InterceptorServerHandle[];
  overrides: string;
  runtime: ChainRuntime;
}

export class PoolChainService implements ChainPort {
  /** gateway id → principal key → runtime (dynamic servers differ per principal). */
  private readonly runtimes = new Map<string, Map<string, CachedRuntime>>();

  constructor(private readonly pool: InterceptorServerPool) {}

  async order(
    gatewayId: string,
    config: GatewayConfig,
    event: string,
    phase: Phase,
    options: { protocolVersion?: string } = {},
  ): Promise<OrderedInterceptorView[]> {
    const plan = await this.guard(() => this.runtimeFor(gatewayId, config, undefined).plan(event, phase, options));
    return planView(plan);
  }

  async dryRun(gatewayId: string, config: GatewayConfig, event: string, phase: Phase, payload: unknown, options: DryRunOptions = {}): Promise<ChainTrace> {
    const runtime = this.runtimeFor(gatewayId, config, options.context?.principal?.id);
    const result = await this.guard(() =>
      runtime.run(event, phase, payload, {
        context: { timestamp: new Date().toISOString(), ...options.context },
        ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
      }),
    );
    return result.trace;
  }

  /** Forgets the runtimes of a gateway (the pool releases the connections). */
  release(gatewayId: string): void {
    this.runtimes.delete(gatewayId);
  }

  private runtimeFor(gatewayId: string, config: GatewayConfig, principal: string | undefined): ChainRuntime {
    const entries = [...config.staticInterceptors, ...dynamicServersFor(config, principal)];
    const handles = this.pool.handles(gatewayId, config, entries);
    const key = principal?.toLowerCase() ?? '';
    let perGateway = this.runtimes.get(gatewayId);
    if (!perGateway) {
      perGateway = new Map();
      this.runtimes.set(gatewayId, perGateway);
    }
    const overrides = JSON.stringify(config.overrides ?? null);
    const cached = perGateway.get(key);
    if (cached && cached.overrides === overrides && sameHandles(cached.handles, handles)) return cached.runtime;
    const runtime = new ChainRuntime(handles, config.overrides ? { overrides: config.overrides } : {});
    perGateway.set(key, { handles, overrides, runtime });
    return runtime;
  }

  private async guard<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      if (err instanceof OverrideWideningError) throw new ApiError('invalid_config', err.message);
      throw err;
    }
  }
}

function sameHandles(a: readonly InterceptorServerHandle[], b: readonly InterceptorServerHandle[]): boolean {
  return a.length === b.length && a.every((h, i) => h === b[i]);
}

/** Mutations in effective order, then validations, then sinks; then what does not apply, with why. */
export function planView(plan: ChainPlan): OrderedInterceptorView[] {
  const view = (e: PlannedEntry): OrderedInterceptorView => ({
    id: e.id,
    server: e.server,
    name: e.name,
    type: e.type,
    pass: e.pass,
    priority: e.priority,
    mode: e.mode,
    failOpen: e.failOpen,
    enabled: e.enabled,
    hooks: e.hooks,
    ...(e.timeoutMs !== undefined ? { timeoutMs: e.timeoutMs } : {}),
  });
  const skipped = (e: SkippedEntry): OrderedInterceptorView => ({ ...view(e), skipped: e.reason, ...(e.detail ? { skipDetail: e.detail } : {}) });
  return [...plan.mutations.map(view), ...plan.validations.map(view), ...plan.sinks.map(view), ...plan.skipped.map(skipped)];
}
