// Ports for parts the app reaches through other capabilities' code: the chain engine (ordering and
// dry runs) and a pool of interceptor-server connections (discover and invoke by hand).
import type { GatewayConfig } from '../../shared/config';
import type { OrderedInterceptorView } from '../../shared/api/chain-order';
import type { InterceptorServerState } from '../../shared/api/models';
import type { ChainTrace } from '../../shared/trace/types';
import type { Phase } from '../../shared/protocol/constants';
import type { InvocationContext } from '../../shared/protocol/schemas';

// The entry type is the API's (the renderer reads the same shape); re-exported for the port's implementers.
export type { OrderedInterceptorView } from '../../shared/api/chain-order';

export interface ChainPort {
  order(gatewayId: string, config: GatewayConfig, event: string, phase: Phase, options?: { protocolVersion?: string }): Promise<OrderedInterceptorView[]>;
  dryRun(
    gatewayId: string,
    config: GatewayConfig,
    event: string,
    phase: Phase,
    payload: unknown,
    options?: { context?: InvocationContext },
  ): Promise<ChainTrace>;
}

export interface ServerPoolPort {
  states(gatewayId: string, config: GatewayConfig): InterceptorServerState[];
  discover(
    gatewayId: string,
    config: GatewayConfig,
    server: string,
    refresh: boolean,
  ): Promise<{ interceptors: { name: string; type: string; [k: string]: unknown }[]; skipped: { name?: string; reason: string }[]; durationMs: number }>;
  invoke(
    gatewayId: string,
    config: GatewayConfig,
    server: string,
    params: { name: string; event: string; phase: Phase; payload: unknown; config?: Record<string, unknown>; timeoutMs?: number; context?: InvocationContext },
  ): Promise<{
    result?: unknown;
    error?: { kind: string; message: string; code?: number; data?: unknown };
    durationMs: number;
    /** The raw `interceptor/invoke` JSON-RPC request and response (when the call reached the wire). */
    rpc?: { request?: Record<string, unknown>; response?: Record<string, unknown> };
  }>;
  /** Forgets a gateway's connections (its config changed or it was deleted). */
  release(gatewayId: string): Promise<void>;
  close(): Promise<void>;
}
