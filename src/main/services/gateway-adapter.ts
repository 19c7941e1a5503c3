// Adapts the gateway capability's `Gateway` class (src/main/gateway) to the manager's GatewayRuntime.
// After start it connects the interceptor servers at once (discovery on the gateway's own handles), so
// a card shows "connected, N interceptors" or the connection error before any traffic arrives.
import { Gateway } from '../gateway';
import { InterceptorServerClient } from '../interceptors/client';
import type { BackendHealth, InterceptorServerState } from '../../shared/api/models';
import type { GatewayConfig } from '../../shared/config';
import type { ConnectionState } from '../interceptors/client/status';
import type { GatewayRuntime, GatewayRuntimeFactory, GatewayRuntimeOptions } from './gateway-runtime';
import type { ReplayHost } from '../gateway/replay/replay';
import type { InterceptorServerHandle } from '../interceptors/server-handle';
import { configErrors } from '../interceptors/chain';
import type { InterceptorDescriptor } from '../../shared/protocol/schemas';
import { configuredServers, endpointTarget } from './gateway-summary';
import { InProcessHostHandle } from '../interceptors/bundled';

/** Discovery attempts after the first one fails (about two minutes in all). */
const WARM_UP_RETRIES = 10;

const STATE_TO_STATUS: Record<ConnectionState, InterceptorServerState['status']> = {
  idle: 'pending',
  connecting: 'pending',
  reconnecting: 'pending',
  connected: 'connected',
  failed: 'failed',
  closed: 'stopped',
};

export const gatewayRuntimeFactory: GatewayRuntimeFactory = (o) => new GatewayRuntimeAdapter(o);

class GatewayRuntimeAdapter implements GatewayRuntime {
  private readonly gateway: Gateway;
  private started = false;
  private readonly counts = new Map<string, number>();
  /** What each server listed last: its config errors are judged against the current overrides. */
  private readonly listed = new Map<string, InterceptorDescriptor[]>();
  private readonly discoveryErrors = new Map<string, string>();
  private unsubscribers: (() => void)[] = [];

  constructor(private readonly o: GatewayRuntimeOptions) {
    this.gateway = new Gateway(o.config, {
      name: o.id,
      recorder: o.recorder,
      log: (line) => o.logger.info(`[gateway ${o.id}] ${line}`),
      ...(o.simulate ? { simulate: o.simulate } : {}),
    });
    // A failed backend connect (or a recovered one) changes the card.
    this.gateway.on('backend-health', () => o.onChange?.());
    this.gateway.on('state', (state) => {
      if (state === 'failed' && this.started) o.onFailure(new Error(this.gateway.status().error ?? 'the gateway stopped unexpectedly'));
    });
  }

  async start(): Promise<void> {
    await this.gateway.start();
    this.started = true;
    this.warmUp();
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const u of this.unsubscribers) u();
    this.unsubscribers = [];
    await this.gateway.stop();
  }

  async reload(config: GatewayConfig): Promise<{ restarted: boolean }> {
    for (const u of this.unsubscribers) u();
    this.unsubscribers = [];
    this.counts.clear();
    this.listed.clear();
    this.discoveryErrors.clear();
    const result = await this.gateway.reload(config);
    // The new interception has new server connections: connect them now so the card stays truthful.
    if (this.started) this.warmUp();
    return result;
  }

  url(): string | undefined {
    return this.gateway.url;
  }

  breakpoints() {
    return this.gateway.breakpoints;
  }

  replayHost(): ReplayHost | undefined {
    return this.started ? this.gateway : undefined;
  }

  backendHealth(): BackendHealth {
    return this.gateway.backendHealth.snapshot();
  }

  serverStates(): InterceptorServerState[] {
    const handles = new Map(this.gateway.interception.servers.map((h) => [h.name, h]));
    return configuredServers(this.gateway.config).map((entry) => {
      const handle = handles.get(entry.name);
      const status = handle instanceof InterceptorServerClient || handle instanceof InProcessHostHandle ? handle.status : undefined;
      const error = this.discoveryErrors.get(entry.name) ?? status?.lastError;
      const count = this.counts.get(entry.name);
      const listed = this.listed.get(entry.name) ?? [];
      const problems = configErrors(
        listed.map((descriptor, listIndex) => ({ server: entry.name, serverIndex: 0, listIndex, descriptor })),
        this.gateway.config.overrides,
      ).map((e) => e.message);
      return {
        name: entry.name,
        transport: entry.transport,
        target: endpointTarget(entry),
        failOpen: entry.failOpen === true,
        status: status ? STATE_TO_STATUS[status.state] : this.started ? 'pending' : 'stopped',
        ...(error && status?.state !== 'connected' ? { error } : {}),
        ...(count !== undefined ? { interceptorCount: count } : {}),
        ...(problems.length > 0 ? { configErrors: problems } : {}),
      };
    });
  }

  /** Connects every static interceptor server now and reports each status change to the UI. */
  private warmUp(): void {
    const interception = this.gateway.interception;
    for (const handle of interception.servers) {
      if (handle instanceof InterceptorServerClient) {
        this.unsubscribers.push(handle.onStatus(() => this.o.onChange?.()));
      }
      this.discoverWithRetry(handle, interception, 0);
    }
  }

  /**
   * A server that is slow to start (a loaded machine, a cold npx) or briefly down is retried with
   * backoff while the gateway runs, so its card turns "connected" without waiting for traffic.
   */
  private discoverWithRetry(handle: InterceptorServerHandle, interception: unknown, attempt: number): void {
    handle.discover().then(
      (r) => {
        this.counts.set(handle.name, r.interceptors.length);
        this.listed.set(handle.name, r.interceptors);
        this.discoveryErrors.delete(handle.name);
        this.o.onChange?.();
      },
      (err: unknown) => {
        this.discoveryErrors.set(handle.name, err instanceof Error ? err.message : String(err));
        this.o.onChange?.();
        if (attempt >= WARM_UP_RETRIES) return;
        const timer = setTimeout(
          () => {
            // Only while this very interception is live (not after a stop or a reload).
            if (this.started && this.gateway.interception === interception) this.discoverWithRetry(handle, interception, attempt + 1);
          },
          Math.min(1000 * 2 ** attempt, 15_000),
        );
        timer.unref?.();
      },
    );
  }
}
