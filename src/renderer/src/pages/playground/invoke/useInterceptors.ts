// The interceptors a server of a gateway offers (servers.discover), shared by the Invoke and
// Simulation tabs; cached per gateway and server, refreshed when gateways change.
import { useState } from 'react';
import type { GatewayInfo } from '../../../../../shared/api/models';
import { useApiQuery } from '../../../api/context';

export interface DiscoveredDescriptor {
  name: string;
  type: string;
  description?: string;
  hooks?: { events: string[]; phase: 'request' | 'response' }[];
  configSchema?: Record<string, unknown>;
  mode?: string;
  failOpen?: boolean;
  [k: string]: unknown;
}

export function useInterceptors(gatewayId: string, server: string | undefined) {
  const q = useApiQuery('servers.discover', { id: gatewayId, server: server ?? '' }, ['gateways'], { enabled: Boolean(server) });
  return q as Omit<typeof q, 'data'> & { data?: { interceptors: DiscoveredDescriptor[]; server: string } };
}

/**
 * The server and interceptor picked in a gateway, as the Invoke and Simulation tabs hold them: a pick
 * that no longer exists (the gateway changed, discovery came back different) falls back to the first.
 */
export function useInterceptorChoice(gateway: GatewayInfo) {
  const servers = gateway.interceptorServers.map((s) => s.name);
  const [picked, setServer] = useState<string>();
  const server = picked && servers.includes(picked) ? picked : servers[0];
  const discovery = useInterceptors(gateway.id, server);
  const interceptors = discovery.data?.interceptors ?? [];
  const [name, setName] = useState<string>();
  const interceptor = interceptors.find((i) => i.name === name) ?? interceptors[0];
  return { servers, server, setServer, discovery, interceptors, interceptor, setName };
}

export type InterceptorChoice = ReturnType<typeof useInterceptorChoice>;
