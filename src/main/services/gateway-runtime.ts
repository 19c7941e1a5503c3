// What the GatewayManager needs from a running gateway. The gateway capability (src/main/gateway)
// provides the real one; `gateway-adapter.ts` wraps it in this interface so the manager, the API and
// the tests do not depend on its internals.
import type { GatewayConfig } from '../../shared/config';
import type { Recorder } from '../../shared/trace/execution';
import type { BackendHealth, InterceptorServerState } from '../../shared/api/models';
import type { Logger } from './environment';
import type { ReplayHost } from '../gateway/replay/replay';
import type { FailureSimulator } from '../interceptors/chain';
import type { GatewayBreakpoints } from '../gateway/breakpoints/breakpoint-set';

export interface GatewayRuntime {
  start(): Promise<void>;
  /** Stops listening, closes sessions and kills every child process it started. */
  stop(): Promise<void>;
  /** The URL of an http listener once started (with the real port when the config said 0). */
  url(): string | undefined;
  /** Live state of its interceptor servers, when the gateway tracks it. */
  serverStates?(): InterceptorServerState[] | undefined;
  /** Whether the gateway reaches its backend, as it last saw it. */
  backendHealth?(): BackendHealth;
  /** The running gateway, for replays through its current chain and backend (src/main/gateway/replay/replay.ts). */
  replayHost?(): ReplayHost | undefined;
  /**
   * Swaps the config while running (hot reload): sessions survive, in-flight requests finish on the old
   * chain; `restarted` when a backend or listener change forced a restart instead.
   */
  reload?(config: GatewayConfig): Promise<{ restarted: boolean }>;
  /** The gateway's breakpoints and open pauses (the debugger). */
  breakpoints?(): GatewayBreakpoints;
}

export interface GatewayRuntimeOptions {
  /** Also the `gateway` field of every execution it records. */
  id: string;
  config: GatewayConfig;
  recorder: Recorder;
  logger: Logger;
  /** Called when the runtime fails on its own after start (listener error, fatal backend failure). */
  onFailure(error: Error): void;
  /** Called when something shown on the card changed (an interceptor server connected or failed). */
  onChange?(): void;
  /** Playground failure simulation for this gateway's chain runs. */
  simulate?: FailureSimulator;
}

export type GatewayRuntimeFactory = (options: GatewayRuntimeOptions) => GatewayRuntime;
